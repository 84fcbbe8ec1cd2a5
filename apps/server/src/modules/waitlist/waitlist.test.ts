import { MESSAGES } from '@conductor/shared';
import { WAITLIST_SOURCES } from '@conductor/shared/schemas/waitlist';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { countEntries } from './waitlist.repository.ts';
import { WAITLIST_RATE_LIMIT } from './waitlist.routes.ts';

let harness: TestApp;
let nextIp = 0;
/** Each request from its own address unless a test is about the per-IP limit. */
const freshIp = () => {
  nextIp += 1;
  return `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp & 255}`;
};

const post = (payload: unknown, options: { ip?: string; contentType?: string; raw?: boolean } = {}) =>
  harness.app.inject({
    method: 'POST',
    url: '/v1/waitlist',
    remoteAddress: options.ip ?? freshIp(),
    headers: { 'content-type': options.contentType ?? 'application/json' },
    payload: options.raw ? (payload as string) : JSON.stringify(payload),
  });

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

describe('POST /v1/waitlist', () => {
  it('stores a new address and answers 201 with the message', async () => {
    const response = await post({ email: '  Ada.Lovelace@Example.com ', source: 'coming_soon_page' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: MESSAGES.waitlist.success });
    expect(await countEntries(harness.app.context.database.db, 'ada.lovelace@example.com')).toBe(1);
  });

  it("answers the footer's box as a subscription to news, not a place on a launch waitlist", async () => {
    const first = await post({ email: 'news@example.com', source: 'footer' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ message: MESSAGES.subscribe.success });
    const again = await post({ email: 'NEWS@example.com', source: 'footer' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ message: MESSAGES.subscribe.duplicate, type: 'invalid_request_error' });
  });

  it('keeps the two lists apart: the launch waitlist and the news each take an address once', async () => {
    expect((await post({ email: 'both@example.com', source: 'coming_soon_page' })).statusCode).toBe(201);
    const news = await post({ email: 'Both@Example.com', source: 'footer' });
    expect(news.statusCode).toBe(201);
    expect(news.json()).toEqual({ message: MESSAGES.subscribe.success });
    const waitlistAgain = await post({ email: 'both@example.com', source: 'coming_soon_page' });
    expect(waitlistAgain.statusCode).toBe(409);
    expect(waitlistAgain.json().error.message).toBe(MESSAGES.waitlist.duplicate);
    expect(await countEntries(harness.app.context.database.db, 'both@example.com')).toBe(2);
  });

  it('answers 409 for the same address in another case or Unicode form', async () => {
    await post({ email: 'grace@example.com', source: 'coming_soon_page' });
    for (const variant of ['GRACE@EXAMPLE.COM', ' Grace@Example.Com', 'ｇｒａｃｅ@ｅｘａｍｐｌｅ.ｃｏｍ']) {
      const response = await post({ email: variant, source: 'coming_soon_page' });
      expect(response.statusCode, variant).toBe(409);
      expect(response.json().error).toMatchObject({ message: MESSAGES.waitlist.duplicate, type: 'invalid_request_error' });
    }
    expect(await countEntries(harness.app.context.database.db, 'grace@example.com')).toBe(1);
  });

  it('answers 400 with the spec message for an invalid address', async () => {
    const response = await post({ email: 'not-an-email', source: 'coming_soon_page' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(MESSAGES.waitlist.invalidEmail);
    expect(response.json().error.param).toBe('email');
  });

  it('keeps exactly one row when identical submissions race', { timeout: 60_000 }, async () => {
    const email = 'race@example.com';
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) => post({ email: index % 2 ? email.toUpperCase() : email, source: 'coming_soon_page' })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(24);
    expect(await countEntries(harness.app.context.database.db, email)).toBe(1);
  });

  it('limits sign-ups per IP address with 429 and Retry-After', async () => {
    const ip = '192.0.2.77';
    for (let index = 0; index < WAITLIST_RATE_LIMIT.points; index += 1) {
      const response = await post({ email: `limit-${index}@example.com`, source: 'footer' }, { ip });
      expect(response.statusCode).toBe(201);
    }
    const limited = await post({ email: 'limit-last@example.com', source: 'footer' }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.type).toBe('rate_limit_error');
    expect(await countEntries(harness.app.context.database.db, 'limit-last@example.com')).toBe(0);
    // Another address is not affected.
    expect((await post({ email: 'other-ip@example.com', source: 'footer' })).statusCode).toBe(201);
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const statuses: number[] = [];
    for (let index = 1; index <= WAITLIST_RATE_LIMIT.points + 1; index += 1) {
      statuses.push((await post({}, { ip: `2001:db8:77:1:${index.toString(16)}::1` })).statusCode);
    }
    expect(statuses.slice(0, WAITLIST_RATE_LIMIT.points).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await post({}, { ip: '2001:db8:77:2::1' })).statusCode).toBe(400);
  });

  it('answers 200 malformed or hostile bodies with a 4xx and stores none of them', { timeout: 120_000 }, async () => {
    const db = harness.app.context.database.db;
    const before = await countEntries(db);
    const local = fc.stringMatching(/^[a-z0-9]{1,20}$/);
    const domain = fc.stringMatching(/^[a-z0-9]{1,20}\.[a-z]{2,6}$/);
    const source = fc.constantFrom(...WAITLIST_SOURCES);
    const trick = fc.constantFrom('\u200b', '\u202e', '\u0000', '\ufeff', '\u00a0', '\u2028', '\u0007', '\u061c', ' ', '\t', '\n');
    const wrongType = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object());
    const invalidEmail = fc.oneof(
      fc.string({ maxLength: 60 }).filter((value) => !value.includes('@')),
      fc.tuple(local, trick, domain).map(([name, char, host]) => `${name}${char}@${host}`),
      fc.tuple(local, trick, domain).map(([name, char, host]) => `${name}@${char}${host}`),
      fc.tuple(fc.string({ minLength: 255, maxLength: 100_000 }), domain).map(([name, host]) => `${name.replaceAll('@', '')}@${host}`),
      local.map((name) => `${name}@localhost`),
      fc.tuple(local, local, domain).map(([a, b, host]) => `${a}@${b}@${host}`),
      fc.constant(''),
    );
    const validEmail = fc.tuple(local, domain).map(([name, host]) => `${name}@${host}`);
    const body: fc.Arbitrary<{ payload: string; contentType?: string }> = fc.oneof(
      fc.record({ email: invalidEmail, source }).map((value) => ({ payload: JSON.stringify(value) })),
      fc.record({ email: wrongType, source }).map((value) => ({ payload: JSON.stringify(value) })),
      fc.record({ email: validEmail, source: fc.oneof(wrongType, fc.string({ maxLength: 5_000 })) }).map((value) => ({
        payload: JSON.stringify(value),
      })),
      validEmail.map((email) => ({ payload: JSON.stringify({ email }) })),
      source.map((value) => ({ payload: JSON.stringify({ source: value }) })),
      fc.constant({ payload: '{}' }),
      fc.tuple(validEmail, source, fc.constantFrom('__proto__', 'constructor', 'admin', 'id', 'createdAt')).map(([email, value, key]) => ({
        payload: `{"email":${JSON.stringify(email)},"source":${JSON.stringify(value)},"${key}":{"polluted":true}}`,
      })),
      fc.oneof(fc.integer(), fc.string(), fc.array(fc.anything()), fc.constant(null), fc.boolean()).map((value) => ({
        payload: JSON.stringify(value),
      })),
      fc.string({ maxLength: 200 }).map((text) => ({ payload: `{${text}` })),
      fc.tuple(validEmail, source).map(([email, value]) => ({ payload: `email=${email}&source=${value}`, contentType: 'text/plain' })),
      fc.tuple(validEmail, source).map(([email, value]) => ({
        payload: `email=${email}&source=${value}`,
        contentType: 'application/x-www-form-urlencoded',
      })),
    );

    const seen: number[] = [];
    await fc.assert(
      fc.asyncProperty(body, async ({ payload, contentType }) => {
        const response = await post(payload, { raw: true, ...(contentType ? { contentType } : {}) });
        seen.push(response.statusCode);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.json().error.message).toEqual(expect.any(String));
      }),
      { numRuns: 200 },
    );
    expect(seen).toHaveLength(200);
    expect(await countEntries(db)).toBe(before);
  });
});
