import { keyEnvironment, type KeyEnvironment, type ProviderId, type UserPlan } from '@conductor/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { open, sha256 } from '../../lib/crypto.ts';
import { isApiKeyActive } from '../../modules/api-keys/api-key.ts';
import { errors, type GatewayError } from '../gateway-error.ts';
import type { KeyLookupGuard } from './key-lookup-guard.ts';
import { findKeyWithAccount, type ProviderKeyRow } from './principal.repository.ts';

/** Who is calling: the key, its account and what the gateway needs of the account. */
export interface GatewayPrincipal {
  keyId: string;
  keyHash: string;
  userId: string;
  /**
   * The shared demo account. Its per-minute limit counts per client address (IPv6 by /64), so one
   * visitor cannot use up everyone's, nor get more by signing in again (elsewhere per account);
   * and its usage, which every visitor sees, holds nothing a visitor typed (an unknown model's name).
   */
  sharedAccount: boolean;
  environment: KeyEnvironment;
  permissions: readonly string[];
  /** Unix ms, or null for keys that do not expire. */
  expiresAt: number | null;
  plan: UserPlan;
  routingPolicy: unknown;
  /** The account's own provider keys, decrypted in memory only (live keys only). Never log. */
  providerKeys: Partial<Record<ProviderId, string>>;
  /** Where an own key must be sent when not to the server's endpoint (Azure OpenAI: the account's resource). */
  providerEndpoints?: Partial<Record<ProviderId, string>>;
}

interface CacheEntry {
  principal: GatewayPrincipal | null;
  /** Why a key is refused (negative entries). */
  refusal?: () => GatewayError;
  expiresAt: number;
  /**
   * An invalidated entry of a key that was valid: it answers nothing (it is expired) and holds
   * nothing of the account, but its reload skips the lookup guard as the valid entry's would.
   */
  wasValid?: true;
}

/** What an invalidation leaves of a valid key's entry (see `wasValid`). */
const INVALIDATED: CacheEntry = { principal: null, expiresAt: Number.NEGATIVE_INFINITY, wasValid: true };

export interface ApiKeyAuthOptions {
  db: Database;
  encryptionKey: Buffer;
  log: FastifyBaseLogger;
  now(): number;
  /** How long a key lookup is trusted; revocation also invalidates at once. */
  ttlMs?: number;
  /** Keys (known or not) kept at most; past it the longest-cached goes first. */
  maxEntries?: number;
  /** Refuses uncached keys from a client address that has presented too many bad ones. */
  guard?: KeyLookupGuard;
}

/** Every authenticator of this process, so the portal's revoke endpoint can reach them all. */
const authenticators = new Set<ApiKeyAuthenticator>();
const remoteInvalidators = new Set<(kind: 'key' | 'account', value: string) => void>();
const accountListeners = new Set<(userId: string, origin: 'here' | 'elsewhere') => void>();

/**
 * Drops a key from every gateway cache (by its id or its SHA-256), here and, with Redis, on
 * every other instance. Call it after revoking, deleting or changing a key's permissions.
 */
export function invalidateApiKeyCache(keyIdOrHash: string): void {
  for (const authenticator of authenticators) authenticator.forgetKey(keyIdOrHash);
  for (const publish of remoteInvalidators) publish('key', keyIdOrHash);
}

/** Drops an account's cached keys (plan, routing default and BYOK keys are re-read on next use). */
export function invalidateAccountCache(userId: string): void {
  for (const authenticator of authenticators) authenticator.forgetAccount(userId);
  for (const listener of accountListeners) listener(userId, 'here');
  for (const publish of remoteInvalidators) publish('account', userId);
}

/**
 * Told of every account invalidation, made here or told by another instance (`origin`): the plan
 * limits read the account's month again (its plan may have changed), the shared count only where
 * the change was made, once. Returns the unregister function.
 */
export function onAccountInvalidated(listener: (userId: string, origin: 'here' | 'elsewhere') => void): () => void {
  accountListeners.add(listener);
  return () => accountListeners.delete(listener);
}

/** After a user adds, replaces or deletes a provider key. */
export const invalidateProviderKeyCache = invalidateAccountCache;

/** Registers a cross-instance publisher (Redis); returns the unregister function. */
export function registerRemoteInvalidator(publish: (kind: 'key' | 'account', value: string) => void): () => void {
  remoteInvalidators.add(publish);
  return () => remoteInvalidators.delete(publish);
}

/** Applies an invalidation received from another instance to this process only. */
export function applyRemoteInvalidation(kind: 'key' | 'account', value: string): void {
  for (const authenticator of authenticators) {
    if (kind === 'key') authenticator.forgetKey(value);
    else authenticator.forgetAccount(value);
  }
  if (kind === 'account') for (const listener of accountListeners) listener(value, 'elsewhere');
}

const BEARER = /^bearer\s+/i;

/**
 * Bearer `cc_live_sk_…`/`cc_test_sk_…` authentication: SHA-256 of the key, looked up in the
 * database and cached for a few seconds (misses coalesced, unknown keys cached negatively so a
 * flood of bad keys cannot reach the database). Revoked and expired keys are refused.
 */
export class ApiKeyAuthenticator {
  readonly #options: ApiKeyAuthOptions;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #loading = new Map<string, Promise<CacheEntry>>();
  /** Bumped by every invalidation: a lookup that raced one is used once but not cached. */
  #generation = 0;

  constructor(options: ApiKeyAuthOptions) {
    this.#options = options;
    this.#ttlMs = options.ttlMs ?? 5_000;
    authenticators.add(this);
  }

  close(): void {
    authenticators.delete(this);
    this.#cache.clear();
  }

  /**
   * The principal at once when the key is cached (the common case: no promise, no tick), else a
   * promise of it; throws (or rejects with) the refusal. `client.ip` is read only on a cache miss,
   * for the lookup guard (a 429 instead of a lookup when that address has presented too many bad
   * keys): Fastify's `request.ip` is a getter, and the cached path should not pay for it.
   */
  authenticateCached(authorization: string | undefined, client?: { readonly ip?: string }): GatewayPrincipal | Promise<GatewayPrincipal> {
    if (!authorization) throw errors.missingKey();
    const match = BEARER.exec(authorization);
    if (!match) throw errors.missingKey();
    const key = authorization.slice(match[0].length).trim();
    if (key.length > 256 || keyEnvironment(key) === null) throw errors.invalidKey();
    const keyHash = sha256(key);
    const entry = this.#cache.get(keyHash);
    if (entry && entry.expiresAt > this.#options.now()) return this.#admit(entry);
    const guard = this.#options.guard;
    // A key that was valid at its last lookup is reloaded unguarded: the guard holds back keys
    // never seen to work, so a flood from a shared address does not stop the keys in use there.
    const seenValid = entry?.principal != null || entry?.wasValid === true;
    const loading = guard && !seenValid ? this.#guardedLoad(keyHash, client?.ip, guard) : this.#load(keyHash);
    return loading.then((loaded) => this.#admit(loaded));
  }

  #admit(entry: CacheEntry): GatewayPrincipal {
    const principal = entry.principal;
    if (!principal) throw (entry.refusal ?? errors.invalidKey)();
    if (principal.expiresAt !== null && principal.expiresAt <= this.#options.now()) throw errors.expiredKey();
    return principal;
  }

  forgetKey(keyIdOrHash: string): void {
    this.#generation += 1;
    // Lookups already running answer the requests that started them, but none that come after.
    this.#loading.clear();
    if (this.#cache.delete(keyIdOrHash)) return;
    for (const [hash, entry] of this.#cache) if (entry.principal?.keyId === keyIdOrHash) this.#cache.set(hash, INVALIDATED);
  }

  /**
   * The account's keys are looked up again on their next use. Their entries are replaced, not
   * removed: a key in use at an address flooded with bad keys is reloaded unguarded, as it would
   * be had it merely expired (else every plan or provider-key change would refuse it with 429).
   */
  forgetAccount(userId: string): void {
    this.#generation += 1;
    this.#loading.clear();
    for (const [hash, entry] of this.#cache) if (entry.principal?.userId === userId) this.#cache.set(hash, INVALIDATED);
  }

  /** A lookup that counts against the caller's address; joining one already running costs the database nothing. */
  #guardedLoad(keyHash: string, address: string | undefined, guard: KeyLookupGuard): Promise<CacheEntry> {
    const joined = this.#loading.get(keyHash);
    if (joined) return joined;
    return guard.lookup(
      address,
      keyHash,
      () => this.#load(keyHash),
      (entry) => entry.principal === null,
    );
  }

  #load(keyHash: string): Promise<CacheEntry> {
    const joined = this.#loading.get(keyHash);
    if (joined) return joined;
    const generation = this.#generation;
    const pending: Promise<CacheEntry> = this.#lookup(keyHash)
      .then((entry) => {
        if (generation !== this.#generation) return entry;
        this.#store(keyHash, entry);
        return entry;
      })
      .finally(() => {
        // An invalidation may have detached this lookup and a newer one taken its place.
        if (this.#loading.get(keyHash) === pending) this.#loading.delete(keyHash);
      });
    this.#loading.set(keyHash, pending);
    return pending;
  }

  /**
   * Caches a lookup. Full, the entry cached longest ago goes (a Map iterates in insertion order,
   * and a reloaded key is inserted again), so a flood of unknown keys evicts them a few at a time
   * rather than emptying the cache, and a key in use is reloaded every `ttlMs` and stays.
   */
  #store(keyHash: string, entry: CacheEntry): void {
    this.#cache.delete(keyHash);
    if (this.#cache.size >= (this.#options.maxEntries ?? 100_000)) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    this.#cache.set(keyHash, entry);
  }

  async #lookup(keyHash: string): Promise<CacheEntry> {
    const { db, now } = this.#options;
    const expiresAt = now() + this.#ttlMs;
    const found = await findKeyWithAccount(db, keyHash);
    if (!found) return { principal: null, refusal: errors.invalidKey, expiresAt };
    const { key: row, user } = found;
    if (row.revokedAt) return { principal: null, refusal: errors.revokedKey, expiresAt };
    if (!isApiKeyActive(row, now())) return { principal: null, refusal: errors.expiredKey, expiresAt };
    const environment: KeyEnvironment = row.environment;
    return {
      principal: {
        keyId: row.id,
        keyHash,
        userId: user.id,
        sharedAccount: user.isDemo,
        environment,
        permissions: row.permissions,
        expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
        plan: user.plan,
        routingPolicy: user.routingPolicy ?? null,
        providerKeys: environment === 'live' ? this.#decrypt(user.id, found.providerKeys) : {},
        providerEndpoints: environment === 'live' ? endpointsOf(found.providerKeys) : {},
      },
      expiresAt,
    };
  }

  /** Opens the account's sealed provider keys in memory; a key that fails to open is skipped (hosted keys apply). */
  #decrypt(userId: string, rows: ProviderKeyRow[]): Partial<Record<ProviderId, string>> {
    const keys: Partial<Record<ProviderId, string>> = {};
    for (const row of rows) {
      try {
        keys[row.provider as ProviderId] = open(row, this.#options.encryptionKey);
      } catch (error) {
        // Never log the error's data: only that decryption failed for this account and provider.
        this.#options.log.warn(
          { userId, provider: row.provider, reason: (error as Error).name },
          'provider key could not be decrypted; using hosted keys',
        );
      }
    }
    return keys;
  }
}

/** The own endpoints stored with the account's provider keys (checked when saved: settings.service.ts, onboarding.service.ts). */
function endpointsOf(rows: ProviderKeyRow[]): Partial<Record<ProviderId, string>> {
  const endpoints: Partial<Record<ProviderId, string>> = {};
  for (const row of rows) if (row.baseUrl) endpoints[row.provider as ProviderId] = row.baseUrl;
  return endpoints;
}
