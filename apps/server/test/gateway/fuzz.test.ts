import { ChatCompletionRequest, OpenAiErrorEnvelope } from '@conductor/shared/openai/chat';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_KEYS } from '../../src/plugins/error-handler.ts';
import { createAccountWithKey, type LiveGateway, startGateway } from './gateway-helpers.ts';

const VALID = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] };

/** A value that is wrong for the field it replaces (checked against the shared schema below). */
const junk = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
);

const FIELDS = [
  'model',
  'messages',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stream',
  'stream_options',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'n',
  'user',
  'seed',
  'conductor',
] as const;

const fieldReplaced = fc
  .record({ field: fc.constantFrom(...FIELDS), value: junk })
  .map(({ field, value }) => ({ ...VALID, [field]: value }));
const messageBroken = fc
  .record({ field: fc.constantFrom('role', 'content', 'name'), value: junk, extra: fc.array(fc.jsonValue(), { maxLength: 2 }) })
  .map(({ field, value, extra }) => ({ ...VALID, messages: [{ role: 'user', content: 'Hi', [field]: value }, ...extra] }));
const fieldMissing = fc.constantFrom('model', 'messages').map((field) => {
  const { [field]: _removed, ...rest } = VALID;
  return rest;
});
const outOfRange = fc.oneof(
  fc.double({ min: 2.000001, max: 1e9, noNaN: true }).map((temperature) => ({ ...VALID, temperature })),
  fc.double({ min: -1e9, max: -0.000001, noNaN: true }).map((temperature) => ({ ...VALID, temperature })),
  fc.integer({ min: -1000, max: 0 }).map((max_tokens) => ({ ...VALID, max_tokens })),
  fc.constant({ ...VALID, messages: [] }),
  fc.integer({ min: 2, max: 10 }).map((n) => ({ ...VALID, n })),
);
const notAnObject = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 3 }));
/**
 * Bodies the schema rejects as they arrive: judged after the JSON round trip the request makes,
 * since JSON.stringify turns NaN and ±Infinity into null (a message with NaN content is invalid,
 * the `"content":null` it is sent as is not), and a replaced field may by chance be valid.
 */
const invalidBody = fc
  .oneof(fieldReplaced, messageBroken, fieldMissing, outOfRange, notAnObject)
  .map((body) => JSON.stringify(body))
  .filter((payload) => !ChatCompletionRequest.safeParse(JSON.parse(payload)).success);
/** Bytes that are not JSON at all. */
const notJson = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
});

describe('fuzz: invalid chat bodies', () => {
  let gateway: LiveGateway;
  let key: string;

  beforeAll(async () => {
    gateway = await startGateway();
    ({ key } = await createAccountWithKey(gateway.app, 'enterprise', { environment: 'test' }));
  });
  afterAll(async () => gateway?.close());

  it('answers 500 generated invalid bodies with 4xx OpenAI envelopes and never crashes', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: invalidBody, weight: 9 }, { arbitrary: notJson, weight: 1 }), async (payload) => {
        const response = await gateway.app.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload,
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        const envelope = OpenAiErrorEnvelope.parse(response.json());
        expect(envelope.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
    expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBe(500);
    // The server is still healthy afterwards.
    const health = await gateway.app.inject({ method: 'GET', url: '/v1/health' });
    expect(health.statusCode).toBe(200);
  });

  // Fastify's guarded JSON parser is skipped for bodies that cannot hold a prototype key: the same verdicts either way.
  const post = (payload: string) =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload,
    });

  it.each([
    ['a __proto__ member', '{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}],"__proto__":{"admin":true}}'],
    ['an escaped __proto__ member', '{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}],"\\u005f\\u005fproto__":{"x":1}}'],
    [
      'a constructor.prototype member',
      '{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}],"constructor":{"prototype":{"x":1}}}',
    ],
  ])('refuses a body with %s as Fastify’s guarded parser does, saying why', async (_name, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'invalid_json', type: 'invalid_request_error', message: `${FORBIDDEN_KEYS}.` },
    });
  });

  it('reads bodies with \\u escapes and with the words in message text', async () => {
    const escaped = await post('{"model":"gpt-4o","messages":[{"role":"user","content":"caf\\u00e9 \\ud83d\\ude00"}]}');
    expect(escaped.statusCode).toBe(200);
    const words = await post(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'the constructor of a prototype' }] }));
    expect(words.statusCode).toBe(200);
    expect(words.json().choices[0].message.content.length).toBeGreaterThan(0);
  });

  it('answers an empty body and broken JSON with the invalid_json envelope', async () => {
    for (const payload of ['', '{"model":', '{"model":"gpt-4o"}}']) {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_json');
    }
  });
});
