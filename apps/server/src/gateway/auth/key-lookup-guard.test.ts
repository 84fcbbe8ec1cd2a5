import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { errors, GatewayError } from '../gateway-error.ts';
import { KeyLookupGuard } from './key-lookup-guard.ts';

const silentLog = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as FastifyBaseLogger;

function guard(failuresPerMinute = 3) {
  return new KeyLookupGuard({ redis: null, redisPrefix: `test-${Math.random()}:`, log: silentLog(), failuresPerMinute });
}

const refused = () => Promise.reject(errors.invalidKey());

describe('KeyLookupGuard', () => {
  it('refuses lookups from an address once it has had too many keys refused', async () => {
    const keys = guard(3);
    for (let index = 0; index < 3; index += 1) {
      await expect(keys.run('203.0.113.7', refused)).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    }
    const lookup = vi.fn(async () => 'principal');
    const error = await keys.run('203.0.113.7', lookup).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'too_many_invalid_keys' });
    const retryAfter = (error as GatewayError).retryAfterSeconds ?? 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((error as GatewayError).message).toBe(
      `Too many requests with invalid API keys from this address. Try again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`,
    );
    // Nothing reached the database for the refused request.
    expect(lookup).not.toHaveBeenCalled();
  });

  it('counts each address on its own', async () => {
    const keys = guard(2);
    await keys.run('198.51.100.1', refused).catch(() => undefined);
    await keys.run('198.51.100.1', refused).catch(() => undefined);
    await expect(keys.run('198.51.100.1', async () => 'principal')).rejects.toMatchObject({ status: 429 });
    await expect(keys.run('198.51.100.2', async () => 'principal')).resolves.toBe('principal');
  });

  it('counts only refused keys: successes and server-side failures do not bring the limit closer', async () => {
    const keys = guard(2);
    for (let index = 0; index < 5; index += 1) await expect(keys.run('192.0.2.9', async () => 'principal')).resolves.toBe('principal');
    const databaseDown = new Error('connection refused');
    for (let index = 0; index < 5; index += 1)
      await expect(keys.run('192.0.2.9', () => Promise.reject(databaseDown))).rejects.toBe(databaseDown);
    await keys.run('192.0.2.9', () => Promise.reject(errors.revokedKey())).catch(() => undefined);
    await expect(keys.run('192.0.2.9', async () => 'principal')).resolves.toBe('principal');
    await keys.run('192.0.2.9', () => Promise.reject(errors.expiredKey())).catch(() => undefined);
    await expect(keys.run('192.0.2.9', async () => 'principal')).rejects.toMatchObject({ code: 'too_many_invalid_keys' });
  });
});
