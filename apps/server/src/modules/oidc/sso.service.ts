import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { MESSAGES } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { OidcCallbackRequest, OidcStartRequest } from '@conductor/shared/schemas/sso';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { findUserByEmail, type UserRow } from '../users/users.repository.ts';
import { findUserByIdentity, insertUserWithIdentity, refreshIdentityClaims } from './identities.repository.ts';
import type { ExternalIdentity } from './provider-types.ts';
import type { SsoProviders } from './providers.ts';
import type { SsoTransactionStore } from './sso-transactions.ts';

export interface SsoDeps {
  db: Database;
  providers: SsoProviders;
  transactions: SsoTransactionStore;
}

/**
 * Step one: remember the browser's state, nonce, PKCE challenge and redirect URI under a new
 * transaction id (sent back as an HttpOnly cookie) and build the provider's authorization URL.
 */
export async function startSso(deps: SsoDeps, input: OidcStartRequest, now: number, reauthUserId?: string) {
  const provider = deps.providers[input.provider];
  if (!provider.configured) throw new AppError('bad_request', provider.note ?? AUTH_COPY.ssoNotConfigured(provider.name));
  const authorizationUrl = await provider.authorizationUrl(input, now);
  const transactionId = randomUUID();
  await deps.transactions.put(transactionId, {
    provider: input.provider,
    state: input.state,
    nonce: input.nonce,
    codeChallenge: input.codeChallenge,
    redirectUri: input.redirectUri,
    ...(reauthUserId === undefined ? {} : { reauthUserId }),
  });
  return { transactionId, authorizationUrl, issuer: provider.issuer };
}

/**
 * Step two: the transaction is used up whatever happens; state and the PKCE verifier must
 * match it before the code is exchanged; the verified identity then signs in or creates
 * its user (keyed by issuer + subject, never by e-mail alone).
 */
export async function completeSso(
  deps: SsoDeps,
  transactionId: string | undefined,
  input: OidcCallbackRequest,
  now: number,
): Promise<{ user: UserRow; isNewUser: boolean }> {
  const transaction = transactionId ? await deps.transactions.take(transactionId) : undefined;
  if (!transaction) throw new AppError('bad_request', AUTH_COPY.ssoSessionLost);
  if (transaction.provider !== input.provider || !equal(transaction.state, input.state)) {
    throw new AppError('bad_request', MESSAGES.oidc.stateMismatch);
  }
  if (!equal(s256(input.codeVerifier), transaction.codeChallenge)) {
    throw new AppError('bad_request', 'Sign-in could not be verified: the PKCE code verifier does not match.');
  }
  const identity = await deps.providers[input.provider].exchange(
    { code: input.code, codeVerifier: input.codeVerifier, redirectUri: transaction.redirectUri, nonce: transaction.nonce },
    now,
  );
  if (transaction.reauthUserId !== undefined) {
    // Confirming a change for the signed-in account: another identity (or a new one) signs nobody in.
    const existing = await findUserByIdentity(deps.db, identity.issuer, identity.subject);
    if (existing?.id !== transaction.reauthUserId) throw new AppError('conflict', AUTH_COPY.ssoReauthOtherAccount);
  }
  return signInIdentity(deps.db, input.provider, identity, now);
}

async function signInIdentity(db: Database, provider: string, identity: ExternalIdentity, now: number) {
  const existing = await findUserByIdentity(db, identity.issuer, identity.subject);
  if (existing) {
    // The provider vouches for its own address only: an account whose e-mail was changed since stays unverified.
    const sameEmail = identity.email?.toLowerCase() === existing.email.toLowerCase();
    const user = await refreshIdentityClaims(db, existing.id, {
      oidcClaims: identity.claims,
      verified: identity.emailVerified && sameEmail,
      now,
    });
    return { user: user ?? existing, isNewUser: false };
  }
  if (!identity.email) throw new AppError('bad_request', AUTH_COPY.ssoNoEmail);
  // An account is created only for an address the provider vouches for: a directory that lets its
  // users set any address (a Microsoft tenant's unverified `email`, a bare `preferred_username`)
  // would otherwise let one claim someone else's, and keep signing in to it after its owner resets
  // the password.
  if (!identity.emailVerified) throw new AppError('bad_request', AUTH_COPY.ssoEmailUnverified);
  if (await findUserByEmail(db, identity.email)) throw new AppError('conflict', AUTH_COPY.ssoEmailInUse);
  const user = await insertUserWithIdentity(
    db,
    {
      id: randomUUID(),
      email: identity.email,
      name: (identity.name?.trim() || identity.email.split('@')[0] || 'User').slice(0, 100),
      passwordHash: null,
      plan: 'free',
      verified: identity.emailVerified,
      authMethod: 'oidc',
      onboardingCompleted: false,
      oidcProvider: provider,
      oidcClaims: identity.claims,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    },
    { issuer: identity.issuer, subject: identity.subject, provider },
  );
  if (!user) throw new AppError('conflict', AUTH_COPY.ssoEmailInUse);
  return { user, isNewUser: true };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
