import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/env.ts';

export interface Secrets {
  sessionSecret: string;
  /** 32 bytes for AES-256-GCM. */
  encryptionKey: Buffer;
}

/**
 * Secrets come from the environment; in development they are generated once into
 * DATA_DIR so that a fresh clone runs with nothing to configure.
 */
export function loadSecrets(env: Env): Secrets {
  if (env.SESSION_SECRET && env.ENCRYPTION_KEY) {
    return { sessionSecret: env.SESSION_SECRET, encryptionKey: Buffer.from(env.ENCRYPTION_KEY, 'hex') };
  }
  const file = path.resolve(env.DATA_DIR, 'secrets.json');
  let stored: { sessionSecret: string; encryptionKey: string } | undefined;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    stored = undefined;
  }
  if (!stored) {
    stored = { sessionSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32).toString('hex') };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  }
  return {
    sessionSecret: env.SESSION_SECRET ?? stored.sessionSecret,
    encryptionKey: Buffer.from(env.ENCRYPTION_KEY ?? stored.encryptionKey, 'hex'),
  };
}
