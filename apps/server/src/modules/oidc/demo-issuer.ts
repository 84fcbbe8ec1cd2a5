import { createHmac } from 'node:crypto';
import type { JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { ISSUER_PAGE_HEADERS, issuerErrorPage } from './consent-page.ts';
import { demoClaims, isDemoSubject } from './demo-identity.ts';
import { oidcStoreAdapter } from './oidc-store.adapter.ts';

/** The web app's client at the demo issuer: public id, secret derived from the server's session secret. */
export const DEMO_CLIENT_ID = 'conductor-web';
export const DEMO_CLIENT_NAME = 'Conductor';
export const DEMO_MOUNT_PATH = '/oidc';

export function demoClientSecret(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('conductor:demo-oidc:client-secret').digest('base64url');
}

export interface DemoIssuerOptions {
  issuer: string;
  db: Database;
  clock: Clock;
  jwks: { keys: JWK[] };
  sessionSecret: string;
  redirectUris: string[];
}

/**
 * A real OpenID Connect issuer (oidc-provider) for the Demo OIDC button: authorization code
 * flow only, PKCE (S256) required for every client, no development login screen: the
 * interaction is a consent page for the browser's demo identity (see demo-issuer.plugin.ts).
 */
export function createDemoIssuer(options: DemoIssuerOptions): Provider {
  const cookieKey = createHmac('sha256', options.sessionSecret).update('conductor:demo-oidc:cookies').digest('base64url');
  const configuration: Configuration = {
    adapter: oidcStoreAdapter(options.db, options.clock),
    clients: [
      {
        client_id: DEMO_CLIENT_ID,
        client_name: DEMO_CLIENT_NAME,
        client_secret: demoClientSecret(options.sessionSecret),
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
    // The ID token carries the granted claims itself: the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: { url: (_ctx, interaction) => `${DEMO_MOUNT_PATH}/interaction/${interaction.uid}` },
    async findAccount(_ctx, subject) {
      if (!isDemoSubject(subject)) return undefined;
      return { accountId: subject, claims: async () => demoClaims(subject) };
    },
    jwks: options.jwks as Configuration['jwks'],
    cookies: {
      keys: [cookieKey],
      long: { httpOnly: true, sameSite: 'lax', path: DEMO_MOUNT_PATH },
      short: { httpOnly: true, sameSite: 'lax', path: DEMO_MOUNT_PATH },
    },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Grant: 600,
      Session: 24 * 60 * 60,
    },
    clientBasedCORS: () => false,
    async renderError(ctx: KoaContextWithOIDC, out) {
      ctx.type = 'html';
      for (const [name, value] of Object.entries(ISSUER_PAGE_HEADERS)) if (name !== 'content-type') ctx.set(name, value);
      ctx.body = issuerErrorPage('Sign-in request refused', String(out.error_description ?? out.error ?? 'The request is not valid.'));
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.issuer.startsWith('https:');
  return provider;
}
