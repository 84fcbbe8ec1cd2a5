import type { WaitlistRequest } from '@conductor/shared/schemas/waitlist';
import type { Database } from '../../db/client.ts';
import { insertIfAbsent } from './waitlist.repository.ts';

export type JoinResult = 'joined' | 'already_listed';

/** Adds a (validated, normalised) address to the waitlist; a second sign-up of the same address is reported, not stored. */
export async function joinWaitlist(db: Database, request: WaitlistRequest, now: number): Promise<JoinResult> {
  const inserted = await insertIfAbsent(db, { email: request.email, source: request.source, createdAt: new Date(now) });
  return inserted ? 'joined' : 'already_listed';
}
