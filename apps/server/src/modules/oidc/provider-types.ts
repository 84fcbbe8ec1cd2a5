import type { SsoProviderId } from '@conductor/shared/schemas/sso';

/** Who the provider says signed in, after every check has passed. */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  /** Kept on the user (spec: sub, email_verified and provider extras such as tid, login, avatar_url, picture). */
  claims: Record<string, unknown>;
}

export interface AuthorizationParams {
  state: string;
  nonce: string;
  codeChallenge: string;
  redirectUri: string;
}

export interface ExchangeParams {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  nonce: string;
}

/** One single sign-on provider: builds the authorization request and turns a code into an identity. */
export interface SsoProvider {
  id: SsoProviderId;
  name: string;
  issuer: string;
  configured: boolean;
  note: string | null;
  authorizationUrl(params: AuthorizationParams, now: number): Promise<string>;
  exchange(params: ExchangeParams, now: number): Promise<ExternalIdentity>;
}
