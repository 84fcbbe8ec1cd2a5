import { OIDC_SCOPE, SSO_PROVIDER_NAMES, type SsoProviderId } from '@conductor/shared/schemas/sso';
import { createRemoteJWKSet, customFetch, type JWTPayload } from 'jose';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { Discovery, DiscoveryDocument } from './discovery.ts';
import { readJson } from './http.ts';
import { verifyIdToken } from './id-token.ts';
import type { ExternalIdentity, SsoProvider } from './provider-types.ts';

const TokenResponse = z.object({ id_token: z.string().min(1), token_type: z.string().optional() });
/** Claims kept on the user beyond sub and email_verified (spec section 3). */
const EXTRA_CLAIMS = ['tid', 'picture', 'login', 'avatar_url'] as const;

export interface OidcClientOptions {
  id: SsoProviderId;
  issuer: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  discovery: Discovery;
  /** Microsoft `common`: the ID token's issuer carries its tenant id. */
  multiTenant?: boolean;
  /** Known endpoints (the embedded demo issuer) instead of discovery. */
  endpoints?: DiscoveryDocument;
}

/** An OpenID Connect relying party: authorization code + PKCE, code exchange, ID-token validation. */
export function createOidcClient(options: OidcClientOptions): SsoProvider {
  const jwksByUri = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  const metadata = (now: number) =>
    options.endpoints
      ? Promise.resolve(options.endpoints)
      : options.discovery.get(options.issuer, { fetch: options.fetch, multiTenant: options.multiTenant ?? false, now });
  const keysFor = (uri: string) => {
    let keys = jwksByUri.get(uri);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(uri), { [customFetch]: options.fetch, timeoutDuration: 10_000 });
      jwksByUri.set(uri, keys);
    }
    return keys;
  };

  return {
    id: options.id,
    name: SSO_PROVIDER_NAMES[options.id],
    issuer: options.issuer,
    configured: true,
    note: null,
    async authorizationUrl(params, now) {
      const document = await metadata(now);
      const url = new URL(document.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: params.redirectUri,
        scope: OIDC_SCOPE,
        state: params.state,
        nonce: params.nonce,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url.toString();
    },
    async exchange(params, now) {
      const document = await metadata(now);
      const credentials = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString(
        'base64',
      );
      const answer = await readJson(
        options.fetch,
        document.token_endpoint,
        {
          method: 'POST',
          headers: {
            authorization: `Basic ${credentials}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: params.code,
            redirect_uri: params.redirectUri,
            code_verifier: params.codeVerifier,
          }).toString(),
        },
        'the sign-in code',
      );
      const tokens = TokenResponse.safeParse(answer);
      if (!tokens.success) throw new AppError('bad_request', 'Sign-in could not be verified: the provider sent no ID token.');
      const claims = await verifyIdToken(tokens.data.id_token, {
        issuer: document.issuer,
        audience: options.clientId,
        nonce: params.nonce,
        keys: keysFor(document.jwks_uri),
        now,
      });
      return identityFrom(claims);
    },
  };
}

function identityFrom(claims: JWTPayload): ExternalIdentity {
  const subject = String(claims.sub);
  // Microsoft Entra sends no `email_verified`; its optional `xms_edov` claim says the address's domain is verified for the tenant.
  const emailVerified =
    claims.email_verified === true || claims.email_verified === 'true' || claims.xms_edov === true || claims.xms_edov === 'true';
  const kept: Record<string, unknown> = { sub: subject, email_verified: emailVerified };
  for (const name of EXTRA_CLAIMS) if (claims[name] !== undefined) kept[name] = claims[name];
  const email =
    typeof claims.email === 'string'
      ? claims.email
      : typeof claims.preferred_username === 'string' && claims.preferred_username.includes('@')
        ? claims.preferred_username
        : null;
  return {
    issuer: String(claims.iss),
    subject,
    email,
    emailVerified: emailVerified && typeof claims.email === 'string',
    name: typeof claims.name === 'string' ? claims.name : null,
    claims: kept,
  };
}
