import type { Database } from '../../db/client.ts';
import { revokeSessionApiKeys } from '../api-keys/api-keys.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { revokeSession, type SessionRow } from './session.service.ts';

/**
 * Ends a signed-in session (sign-out, or a new sign-in replacing it). On the shared demo account
 * the keys the session created end with it (ADR 0009).
 */
export async function endSession(
  db: Database,
  auth: { user: Pick<UserRow, 'id' | 'isDemo'>; session: Pick<SessionRow, 'tokenHash'> },
  now: number,
): Promise<void> {
  await revokeSession(db, auth.session.tokenHash, now);
  if (auth.user.isDemo) await revokeSessionApiKeys(db, auth.user.id, auth.session.tokenHash, now);
}
