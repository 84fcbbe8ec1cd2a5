import { PROVIDER_IDS, type PublicUser } from '@conductor/shared';
import {
  AZURE_ENDPOINT_NEEDS_KEY,
  azureEndpointWithoutKey,
  type OnboardingMode,
  type ProviderKeysInput,
} from '@conductor/shared/schemas/onboarding';
import type { Database } from '../../db/client.ts';
import { invalidateAccountCache } from '../../gateway/gateway.plugin.ts';
import { checkAzureResource } from '../provider-keys/azure-resource.ts';
import { AppError } from '../../lib/errors.ts';
import { deleteAllProviderKeys, upsertProviderKey } from '../provider-keys/provider-keys.repository.ts';
import { findUserById, updateUser } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';

async function publicUser(db: Database, userId: string, now: number): Promise<PublicUser> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('not_found', 'Account not found.');
  return toPublicUser(db, user, now);
}

/** The plans a new account can leave for byo-keys here: no paid period to credit or charge. */
const UNBILLED_PLANS: ReadonlySet<string> = new Set(['free', 'byo-keys']);

export const ONBOARDING_KEYS_CLOSED =
  'Onboarding is finished: manage your provider keys in Settings → Provider keys, and your plan in Billing.';
export const ONBOARDING_KEYS_PAID_PLAN =
  'Your account is on a paid plan: change it in Billing (unused time is credited), then add provider keys in Settings → Provider keys.';

/**
 * The Azure key's own resource, checked as Settings checks it (the gateway's rule for the server's
 * own: https, Azure's hosts, no credentials or query; loopback only where tests allow it), so the
 * key is never sent elsewhere. None: the key goes to the server's resource (null).
 */
function azureResource(keys: ProviderKeysInput, allowLocal: boolean): string | null {
  if (azureEndpointWithoutKey(keys)) {
    throw new AppError('validation_failed', AZURE_ENDPOINT_NEEDS_KEY, { fields: { azureEndpoint: AZURE_ENDPOINT_NEEDS_KEY } });
  }
  return keys.azureEndpoint === undefined ? null : checkAzureResource(keys.azureEndpoint, allowLocal, 'azureEndpoint');
}

/**
 * Bring-your-own-keys step: the non-empty keys replace the user's stored keys (encrypted; the
 * Azure key with its resource URL when one is given), and the plan becomes byo-keys. Only while
 * onboarding, and only from an unbilled plan: after
 * onboarding it would silently replace keys kept in Settings, and from a paid plan it would drop
 * the paid period without the credit Billing gives (409 either way).
 */
export async function saveOnboardingKeys(
  db: Database,
  encryptionKey: Buffer,
  userId: string,
  keys: ProviderKeysInput,
  now: number,
  options: { allowLocalEndpoint?: boolean } = {},
): Promise<PublicUser> {
  const azureEndpoint = azureResource(keys, options.allowLocalEndpoint ?? false);
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('not_found', 'Account not found.');
  if (user.onboardingCompleted) throw new AppError('conflict', ONBOARDING_KEYS_CLOSED);
  if (!UNBILLED_PLANS.has(user.plan)) throw new AppError('conflict', ONBOARDING_KEYS_PAID_PLAN);
  await db.transaction(async (tx) => {
    const scoped = tx as unknown as Database;
    await deleteAllProviderKeys(scoped, userId);
    for (const provider of PROVIDER_IDS) {
      const secret = keys[provider];
      if (secret)
        await upsertProviderKey(scoped, encryptionKey, userId, provider, secret, now, provider === 'azure' ? azureEndpoint : null);
    }
    await updateUser(scoped, userId, { plan: 'byo-keys' });
  });
  // The gateway caches the account's plan and decrypted keys with their endpoints (Settings drops the same entry).
  invalidateAccountCache(userId);
  return publicUser(db, userId, now);
}

/**
 * Finishes onboarding (once; a repeat call changes nothing). Bring-your-own-keys needs its keys
 * step saved (the byo-keys plan), with any number of keys: the spec has every key optional.
 * Hosted keeps the plan the account came in with: before onboarding ends, byo-keys can only come
 * from the keys step (and only from free), so a user who saved keys, went back and chose Hosted
 * has that save undone (keys removed, plan free) and is served by Conductor's keys as the wizard says.
 */
export async function completeOnboarding(db: Database, userId: string, mode: OnboardingMode, now: number): Promise<PublicUser> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('not_found', 'Account not found.');
  if (user.onboardingCompleted) return toPublicUser(db, user, now);
  if (mode === 'byo-keys' && user.plan !== 'byo-keys') {
    throw new AppError('bad_request', 'Save your provider keys before finishing, or choose Hosted Service.');
  }
  if (mode === 'hosted' && user.plan === 'byo-keys') {
    await db.transaction(async (tx) => {
      const scoped = tx as unknown as Database;
      await deleteAllProviderKeys(scoped, userId);
      await updateUser(scoped, userId, { plan: 'free', onboardingCompleted: true });
    });
    invalidateAccountCache(userId);
  } else {
    await updateUser(db, userId, { onboardingCompleted: true });
  }
  return publicUser(db, userId, now);
}
