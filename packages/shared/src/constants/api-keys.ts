import { KEY_PREFIX, MASK } from './limits.ts';

export type KeyEnvironment = keyof typeof KEY_PREFIX;

/** `cc_live_sk_…` / `cc_test_sk_…` → its environment, or null for anything else. */
export function keyEnvironment(key: string): KeyEnvironment | null {
  if (key.startsWith(KEY_PREFIX.live)) return 'live';
  if (key.startsWith(KEY_PREFIX.test)) return 'test';
  return null;
}

/** Masks a secret as first N + '…' + last M characters. */
export function maskSecret(secret: string, head: number, tail: number): string {
  if (secret.length <= head + tail) return `${secret.slice(0, Math.min(4, secret.length))}…`;
  return `${secret.slice(0, head)}...${secret.slice(-tail)}`;
}

export const maskApiKey = (key: string) => maskSecret(key, MASK.apiKeys.head, MASK.apiKeys.tail);
export const maskProviderKey = (key: string) => maskSecret(key, MASK.onboarding.head, MASK.onboarding.tail);
