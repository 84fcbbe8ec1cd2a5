import { invalidateApiKeyCache } from '../../gateway/gateway.plugin.ts';

/**
 * The gateway caches key look-ups; a revoked key must stop working at once, so every
 * revocation drops the key from that cache (on every instance, through Redis when configured).
 */
export function forgetRevokedKeys(keyHashes: string[]): void {
  for (const keyHash of keyHashes) invalidateApiKeyCache(keyHash);
}
