import { randomBytes } from 'node:crypto';
import { OpenAiErrorEnvelope } from '@conductor/shared/openai/chat';
import { eq } from 'drizzle-orm';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema/index.ts';
import { invalidateApiKeyCache } from '../../src/gateway/gateway.plugin.ts';
import { addKey, createAccountWithKey, type LiveGateway, manualClock, sdk, startGateway } from './gateway-helpers.ts';

const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };

describe('gateway authentication', () => {
  let gateway: LiveGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => gateway?.close());

  const post = (authorization?: string) =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: authorization === undefined ? {} : { authorization },
      payload: body,
    });

  it.each([
    ['no Authorization header', undefined, 'missing_api_key'],
    ['a non-Bearer scheme', 'Basic abc', 'missing_api_key'],
    ['a key without our prefix', 'Bearer sk-not-ours', 'invalid_api_key'],
    ['an unknown live key', 'Bearer cc_live_sk_doesnotexist0000000000000000000', 'invalid_api_key'],
  ])('refuses %s with 401 in the OpenAI envelope', async (_name, authorization, code) => {
    const response = await post(authorization);
    expect(response.statusCode).toBe(401);
    const envelope = OpenAiErrorEnvelope.parse(response.json());
    expect(envelope.error).toMatchObject({ type: 'authentication_error', code });
  });

  it('checks the key before reading the body', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a revoked key at once, through the SDK', async () => {
    const { key, keyId } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
    const client = sdk(gateway.origin, key);
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    await gateway.app.context.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    invalidateApiKeyCache(keyId);
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as APIError).code).toBe('api_key_revoked');
  });

  it('refuses an expired key', async () => {
    const { key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test', expiresAt: new Date(Date.now() - 1_000) });
    const response = await post(`Bearer ${key}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('api_key_expired');
  });

  it('refuses a key that expires while cached', async () => {
    // Room for a busy host to create the account and make the first call before the expiry.
    const expiresAt = new Date(Date.now() + 2_000);
    const { key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test', expiresAt });
    expect((await post(`Bearer ${key}`)).statusCode).toBe(200);
    // Past the expiry, still well inside the cache's 5 s life: the cached entry must not be trusted.
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    expect((await post(`Bearer ${key}`)).json().error.code).toBe('api_key_expired');
  });

  it('answers 403 to a key without the api permission', async () => {
    const { userId } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
    const { key } = await addKey(gateway.app, userId, { environment: 'test', permissions: ['admin'] });
    const error = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as APIError).code).toBe('insufficient_permissions');
    const models = await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${key}` } });
    expect(models.statusCode).toBe(403);
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    const { key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
    const error = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-17', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as APIError).code).toBe('model_not_found');
    expect((error as APIError).param).toBe('model');
  });

  it('names the invalid field as param (temperature out of range)', async () => {
    const { key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
    const error = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], temperature: 2.5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as APIError).param).toBe('temperature');
    expect((error as APIError).type).toBe('invalid_request_error');
  });
});

describe('gateway key lookups per client address', () => {
  const LIMIT = 8;
  const clock = manualClock(Date.now());
  let guarded: LiveGateway;

  beforeAll(async () => {
    guarded = await startGateway({ GATEWAY_KEY_LOOKUP_FAILURES: String(LIMIT) }, { clock });
  });
  afterAll(async () => guarded?.close());

  it('refuses uncached keys from an address that sent too many unknown ones, without a lookup', async () => {
    const { key } = await createAccountWithKey(guarded.app, 'pro', { environment: 'test' });
    const { key: otherKey } = await createAccountWithKey(guarded.app, 'pro', { environment: 'test' });
    const from = (remoteAddress: string, bearer: string) =>
      guarded.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        remoteAddress,
        headers: { authorization: `Bearer ${bearer}` },
        payload: body,
      });
    // The key in use is cached before the flood starts (the cache's clock moves only when the test moves it).
    expect((await from('203.0.113.9', key)).statusCode).toBe(200);
    const unknown = () => `cc_live_sk_${randomBytes(24).toString('base64url')}`;
    for (let index = 0; index < LIMIT; index += 1) {
      const response = await from('203.0.113.9', unknown());
      expect(response.json().error.code).toBe('invalid_api_key');
    }
    const refused = await from('203.0.113.9', unknown());
    expect(refused.statusCode).toBe(429);
    expect(OpenAiErrorEnvelope.parse(refused.json()).error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_invalid_keys' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json().error.message).toMatch(
      /^Too many invalid API keys were sent from this address, so new keys from it are not being checked for now\. Try again in \d+ seconds?\.$/,
    );
    // A valid key not yet cached is refused too: no lookup is made, so it cannot be told from a guess.
    expect((await from('203.0.113.9', otherKey)).statusCode).toBe(429);
    // The key already in use goes on working from that address, from the cache and, once the
    // cached entry is stale, through a new lookup (it was valid at its last one).
    expect((await from('203.0.113.9', key)).statusCode).toBe(200);
    clock.advance(6_000);
    expect((await from('203.0.113.9', key)).statusCode).toBe(200);
    expect((await from('203.0.113.9', otherKey)).statusCode).toBe(429);
    // Other addresses are not affected.
    expect((await from('203.0.113.10', otherKey)).statusCode).toBe(200);
    expect((await from('203.0.113.10', unknown())).json().error.code).toBe('invalid_api_key');
  });

  it('has no guard with GATEWAY_KEY_LOOKUP_FAILURES=0', async () => {
    const open = await startGateway({ GATEWAY_KEY_LOOKUP_FAILURES: '0' });
    try {
      for (let index = 0; index < 3; index += 1) {
        const response = await open.app.inject({
          method: 'GET',
          url: '/v1/models',
          remoteAddress: '203.0.113.11',
          headers: { authorization: `Bearer cc_live_sk_${randomBytes(24).toString('base64url')}` },
        });
        expect(response.json().error.code).toBe('invalid_api_key');
      }
    } finally {
      await open.close();
    }
  });
});
