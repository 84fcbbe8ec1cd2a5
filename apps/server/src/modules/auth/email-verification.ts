import { createHmac, timingSafeEqual } from 'node:crypto';
import { AUTH_COPY, EMAIL_VERIFICATION_TTL_MS } from '@conductor/shared/schemas/auth-copy';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { mailGreeting } from '../../lib/mail-greeting.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { createLimiter } from './limiter.ts';
import { publicOrigin } from './public-origin.ts';
import { and, eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { findUserById, type UserRow } from '../users/users.repository.ts';

export const EMAIL_VERIFICATION_MAIL_KIND = 'email_verification';

/**
 * Confirmation links are signed, not stored: `<user id>.<expiry in Unix seconds>.<HMAC>`, the
 * HMAC (SHA-256 under a key derived from SESSION_SECRET) covering the id, the expiry and the
 * address the link was sent to. A link therefore confirms only that address: once the account's
 * e-mail changes, older links stop working. Confirming twice is harmless, so a link need not be
 * single-use.
 */
function signature(secret: string, userId: string, email: string, expiresAtSeconds: number): string {
  const key = createHmac('sha256', secret).update('conductor:email-verification:v1').digest();
  return createHmac('sha256', key).update(`${userId}\n${email.toLowerCase()}\n${expiresAtSeconds}`).digest('base64url');
}

export function emailVerificationToken(secret: string, user: Pick<UserRow, 'id' | 'email'>, now: number): string {
  const expiresAtSeconds = Math.floor((now + EMAIL_VERIFICATION_TTL_MS) / 1000);
  return `${user.id}.${expiresAtSeconds}.${signature(secret, user.id, user.email, expiresAtSeconds)}`;
}

/** E-mails a confirmation link for the account's current address. */
export async function sendEmailVerification(
  deps: { mailer: Mailer; secret: string },
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
  input: { origin: string; now: number },
): Promise<void> {
  const link = `${input.origin}/verify-email?token=${emailVerificationToken(deps.secret, user, input.now)}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Confirm your email address for Conductor',
    kind: EMAIL_VERIFICATION_MAIL_KIND,
    deliverForMs: EMAIL_VERIFICATION_TTL_MS,
    text: [
      mailGreeting(user.name, false),
      '',
      'Please confirm that this is your email address for your Conductor account:',
      '',
      link,
      '',
      'The link works for 3 days. Until the address is confirmed, a password reset sent to it removes the API keys, provider keys and single sign-on links set up on the account, in case someone else created it with your address.',
      '',
      'If you did not create a Conductor account, ignore this email.',
      '',
      'The Conductor team',
    ].join('\n'),
  });
}

const confirmationMailLimiters = new WeakMap<object, RateLimiterAbstract>();

/**
 * The count of confirmation links mailed per account, three an hour: the banner's resend and an
 * e-mail change in Settings take from the same one. One instance per app (keyed by its context),
 * so the in-memory store is shared too, not only the Redis keys.
 */
export function confirmationMailLimiter(context: Pick<AppContext, 'redis' | 'env'>): RateLimiterAbstract {
  let limiter = confirmationMailLimiters.get(context);
  if (!limiter) {
    limiter = createLimiter({
      name: 'verification-account',
      points: 3,
      durationSeconds: 60 * 60,
      redis: context.redis,
      redisPrefix: context.env.GATEWAY_REDIS_PREFIX,
    });
    confirmationMailLimiters.set(context, limiter);
  }
  return limiter;
}

/**
 * Sends the confirmation link for `user`'s address after the answer (closing the app waits for
 * it); a failure is logged, never the request's error.
 */
export function mailVerificationLater(
  context: Pick<AppContext, 'mailer' | 'secrets' | 'env' | 'clock'>,
  request: FastifyRequest,
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
): void {
  const { mailer, secrets, env, clock } = context;
  mailer.background(
    sendEmailVerification({ mailer, secret: secrets.sessionSecret }, user, { origin: publicOrigin(env, request), now: clock.now() }).catch(
      (error: unknown) => request.log.error({ err: error }, 'confirmation e-mail failed'),
    ),
  );
}

/**
 * Marks the signed-in account's e-mail as confirmed when the token is valid for it and its
 * current address. Only the account's own session may confirm: otherwise whoever registered
 * someone else's address would have it confirmed the moment that person (or a mail scanner)
 * opened the link, and would keep what they set up through the owner's reset (ADR 0010). A valid
 * link for another account is refused with its own code (403 `verification_link_other_account`).
 */
export async function verifyEmail(db: Database, secret: string, token: string, signedIn: UserRow, now: number): Promise<UserRow> {
  const invalid = () => new AppError('bad_request', AUTH_COPY.verifyEmailInvalid, { fields: { token: AUTH_COPY.verifyEmailInvalid } });
  const [userId = '', expiry = '', given = ''] = token.split('.');
  const expiresAtSeconds = Number(expiry);
  if (!userId || !Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds * 1000 < now) throw invalid();
  const user = userId === signedIn.id ? ((await findUserById(db, userId)) ?? signedIn) : await findUserById(db, userId);
  if (!user) throw invalid();
  const expected = Buffer.from(signature(secret, user.id, user.email, expiresAtSeconds));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid();
  // A good link opened in another account's session: said apart from a bad link, since signing out
  // and opening it again is what works (whoever holds the link knows whose it is anyway).
  if (user.id !== signedIn.id) throw new AppError('verification_link_other_account', AUTH_COPY.verifyEmailOtherAccount);
  if (user.verified) return user;
  // Only while the address is still the one the link was signed for (an e-mail change may race this).
  const [confirmed] = await db
    .update(users)
    .set({ verified: true, updatedAt: new Date(now) })
    .where(and(eq(users.id, user.id), sql`lower(${users.email}) = lower(${user.email})`))
    .returning();
  if (!confirmed) throw invalid();
  return confirmed;
}
