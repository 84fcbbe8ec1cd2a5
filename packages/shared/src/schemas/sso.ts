import { z } from 'zod';
import { PublicUser } from './auth.ts';

/** SSO provider option (spec section 3): id and an issuer URL. */
export const SSO_PROVIDER_IDS = ['google', 'microsoft', 'github', 'demo'] as const;
export const SsoProviderId = z.enum(SSO_PROVIDER_IDS);
export type SsoProviderId = z.infer<typeof SsoProviderId>;

export const SSO_PROVIDER_NAMES: Record<SsoProviderId, string> = {
  google: 'Google',
  microsoft: 'Microsoft',
  github: 'GitHub',
  demo: 'Demo OIDC',
};

/** The scope the spec's authorisation request asks for (GitHub, plain OAuth 2, uses its own). */
export const OIDC_SCOPE = 'openid profile email';

export const SsoProviderOption = z.object({
  id: SsoProviderId,
  name: z.string(),
  issuer: z.string(),
  configured: z.boolean(),
  /** Why the button is disabled, when it is. */
  note: z.string().nullable(),
});
export type SsoProviderOption = z.infer<typeof SsoProviderOption>;

export const AuthProvidersResponse = z.object({
  providers: z.array(SsoProviderOption),
  /** Whether the seeded demo account (the login page's demo box) exists. */
  demoAccount: z.boolean(),
});
export type AuthProvidersResponse = z.infer<typeof AuthProvidersResponse>;

/** High-entropy random values the browser makes: base64url, 32 to 128 characters. */
const RandomValue = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be 32 to 128 base64url characters');
/** RFC 7636: the verifier is 43 to 128 unreserved characters; its S256 challenge is 43 base64url characters. */
export const CodeVerifier = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a PKCE code verifier (RFC 7636)');
export const CodeChallenge = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be an S256 code challenge');

export const OidcStartRequest = z.object({
  provider: SsoProviderId,
  state: RandomValue,
  nonce: RandomValue,
  codeChallenge: CodeChallenge,
  codeChallengeMethod: z.literal('S256').default('S256'),
  redirectUri: z.url().max(2000),
  /**
   * Signing in again to confirm a sensitive change (Settings): the callback then signs in only the
   * account that asked, and refuses any other identity (keeping the current session).
   */
  reauthenticate: z.boolean().optional(),
});
export type OidcStartRequest = z.infer<typeof OidcStartRequest>;

export const OidcStartResponse = z.object({ authorizationUrl: z.string(), issuer: z.string() });
export type OidcStartResponse = z.infer<typeof OidcStartResponse>;

export const OidcCallbackRequest = z.object({
  provider: SsoProviderId,
  code: z.string().min(1).max(4096),
  state: RandomValue,
  codeVerifier: CodeVerifier,
});
export type OidcCallbackRequest = z.infer<typeof OidcCallbackRequest>;

export const OidcCallbackResponse = z.object({ user: PublicUser, isNewUser: z.boolean() });
export type OidcCallbackResponse = z.infer<typeof OidcCallbackResponse>;
