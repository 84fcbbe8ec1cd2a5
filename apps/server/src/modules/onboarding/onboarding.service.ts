import { PROVIDER_IDS, type PublicUser } from '@conductor/shared';
import type { OnboardingMode, ProviderKeysInput } from '@conductor/shared/schemas/onboarding';
import type { Database } from '../../db/client.ts';
import { invalidateAccountCache } from '../../gateway/gateway.plugin.ts';
import { AppError } from '../../lib/errors.ts';
import { deleteAllProviderKeys, upsertProviderKey } from '../provider-keys/provider-keys.repository.ts';
import { findUserById, listProviderKeySummaries, updateUser } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';

async function publicUser(db: Database, userId: string, now: number): Promise<PublicUser> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('not_found', 'Account not found.');
  return toPublicUser(db, user, now);
}

/**
 * Bring-your-own-keys step: the non-empty keys replace the user's stored keys (encrypted),
 * and the plan becomes byo-keys.
 */
export async function saveOnboardingKeys(
  db: Database,
  encryptionKey: Buffer,
  userId: string,
  keys: ProviderKeysInput,
  now: number,
): Promise<PublicUser> {
  await db.transaction(async (tx) => {
    const scoped = tx as unknown as Database;
    await deleteAllProviderKeys(scoped, userId);
    for (const provider of PROVIDER_IDS) {
      const secret = keys[provider];
      if (secret) await upsertProviderKey(scoped, encryptionKey, userId, provider, secret, now);
    }
    await updateUser(scoped, userId, { plan: 'byo-keys' });
  });
  // The gateway caches the account's plan and decrypted keys.
  invalidateAccountCache(userId);
  return publicUser(db, userId, now);
}

/** Finishes onboarding. Hosted keeps the plan; bring-your-own-keys needs a saved key. */
export async function completeOnboarding(db: Database, userId: string, mode: OnboardingMode, now: number): Promise<PublicUser> {
  if (mode === 'byo-keys' && (await listProviderKeySummaries(db, userId)).length === 0) {
    throw new AppError('bad_request', 'Save at least one provider key before finishing, or choose Hosted Service.');
  }
  await updateUser(db, userId, { onboardingCompleted: true });
  return publicUser(db, userId, now);
}
