import type { Env } from '../../config/env.ts';
import { DEMO_MOUNT_PATH } from './demo-issuer.ts';

const ANY_ADDRESS = new Set(['0.0.0.0', '::']);
const bracketed = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The address this server answers on when no PUBLIC_URL says otherwise. */
function ownOrigin(env: Env): string {
  return `http://${ANY_ADDRESS.has(env.HOST) ? '127.0.0.1' : bracketed(env.HOST)}:${env.PORT}`;
}

/** The demo issuer's identifier: on PUBLIC_URL when set, else on this server's own address. */
export function demoIssuerUrl(env: Env): string {
  return `${env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : ownOrigin(env)}${DEMO_MOUNT_PATH}`;
}

/** Where the demo issuer may send codes: our own /auth/callback, on PUBLIC_URL and (outside production) loopback. */
export function demoRedirectUris(env: Env): string[] {
  const origins = new Set<string>();
  if (env.PUBLIC_URL) origins.add(new URL(env.PUBLIC_URL).origin);
  if (!env.PUBLIC_URL || env.NODE_ENV !== 'production') {
    origins.add(ownOrigin(env));
    origins.add(`http://127.0.0.1:${env.PORT}`);
    origins.add(`http://localhost:${env.PORT}`);
  }
  return [...origins].map((origin) => `${origin}/auth/callback`);
}
