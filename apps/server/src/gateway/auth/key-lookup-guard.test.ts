import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { errors, GatewayError } from '../gateway-error.ts';
import { KeyLookupGuard } from './key-lookup-guard.ts';

interface Answer {
  ok: boolean;
}

const silentLog = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() });

function guard(failuresPerMinute = 3, log = silentLog()) {
  return new KeyLookupGuard({
    redis: null,
    redisPrefix: `test-${Math.random()}:`,
    log: log as unknown as FastifyBaseLogger,
    failuresPerMinute,
  });
}

const freshKey = () => `hash-${randomUUID()}`;
const refused = (answer: Answer) => !answer.ok;
const unknownKey = async (): Promise<Answer> => ({ ok: false });
const validKey = async (): Promise<Answer> => ({ ok: true });
const lookupFrom = (keys: KeyLookupGuard, address: string, load: () => Promise<Answer>, keyHash = freshKey()) =>
  keys.lookup(address, keyHash, load, refused);

describe('KeyLookupGuard', () => {
  it('refuses lookups from an address once it has had that many distinct keys refused this minute', async () => {
    const log = silentLog();
    const keys = guard(3, log);
    for (let index = 0; index < 3; index += 1) await expect(lookupFrom(keys, '203.0.113.7', unknownKey)).resolves.toEqual({ ok: false });
    const load = vi.fn(validKey);
    const error = await lookupFrom(keys, '203.0.113.7', load).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'too_many_invalid_keys' });
    const retryAfter = (error as GatewayError).retryAfterSeconds ?? 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((error as GatewayError).message).toBe(
      `Too many invalid API keys were sent from this address, so new keys from it are not being checked for now. Try again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`,
    );
    // Nothing reached the database for the refused request.
    expect(load).not.toHaveBeenCalled();
    // The operator hears of it once per address and minute, not once per refused request.
    await lookupFrom(keys, '203.0.113.7', load).catch(() => undefined);
    const warnings = log.warn.mock.calls.filter(([, message]) => String(message).startsWith('too many refused API keys'));
    expect(warnings).toEqual([
      [{ address: '203.0.113.7', limit: 3 }, 'too many refused API keys from one address: its uncached keys wait'],
    ]);
  });

  it('counts one wrong key once, however often it is looked up', async () => {
    const keys = guard(2);
    for (let index = 0; index < 10; index += 1) {
      await expect(lookupFrom(keys, '198.51.100.9', unknownKey, 'the-same-wrong-key')).resolves.toEqual({ ok: false });
    }
    await expect(lookupFrom(keys, '198.51.100.9', unknownKey)).resolves.toEqual({ ok: false });
    await expect(lookupFrom(keys, '198.51.100.9', validKey)).rejects.toMatchObject({ status: 429 });
  });

  it('lets no more lookups run at once than the address has points, so a burst cannot overshoot', async () => {
    const keys = guard(5);
    let running = 0;
    let most = 0;
    const slowUnknownKey = async (): Promise<Answer> => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return { ok: false };
    };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        lookupFrom(keys, '192.0.2.44', slowUnknownKey).then(
          () => 'looked up',
          (error: GatewayError) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'looked up')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'too_many_invalid_keys')).toHaveLength(15);
    expect(most).toBe(5);
  });

  it('counts each address on its own', async () => {
    const keys = guard(2);
    await lookupFrom(keys, '198.51.100.1', unknownKey);
    await lookupFrom(keys, '198.51.100.1', unknownKey);
    await expect(lookupFrom(keys, '198.51.100.1', validKey)).rejects.toMatchObject({ status: 429 });
    await expect(lookupFrom(keys, '198.51.100.2', validKey)).resolves.toEqual({ ok: true });
  });

  it('counts an IPv6 /64 as one address', async () => {
    const keys = guard(2);
    await lookupFrom(keys, '2001:db8:aa:bb::1', unknownKey);
    await lookupFrom(keys, '2001:db8:aa:bb:ffff:1:2:3', unknownKey);
    await expect(lookupFrom(keys, '2001:db8:aa:bb::99', validKey)).rejects.toMatchObject({ status: 429 });
    await expect(lookupFrom(keys, '2001:db8:aa:bc::1', validKey)).resolves.toEqual({ ok: true });
  });

  it('counts only refused keys: successes and database failures give their point back', async () => {
    const keys = guard(2);
    for (let index = 0; index < 5; index += 1) await expect(lookupFrom(keys, '192.0.2.9', validKey)).resolves.toEqual({ ok: true });
    const databaseDown = new Error('connection refused');
    for (let index = 0; index < 5; index += 1) {
      await expect(lookupFrom(keys, '192.0.2.9', () => Promise.reject(databaseDown))).rejects.toBe(databaseDown);
    }
    await lookupFrom(keys, '192.0.2.9', unknownKey);
    await expect(lookupFrom(keys, '192.0.2.9', validKey)).resolves.toEqual({ ok: true });
    await lookupFrom(keys, '192.0.2.9', unknownKey);
    await expect(lookupFrom(keys, '192.0.2.9', validKey)).rejects.toMatchObject({ code: 'too_many_invalid_keys' });
  });

  it('passes a refusal the lookup itself throws through unchanged', async () => {
    const keys = guard(2);
    await expect(lookupFrom(keys, '192.0.2.10', () => Promise.reject(errors.invalidKey()))).rejects.toMatchObject({ status: 401 });
  });
});
