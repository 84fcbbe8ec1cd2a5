import { PROVIDER_IDS, type ProviderId } from '@conductor/shared';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

/** A JSON Schema as a caller of OpenAI's structured outputs writes it (strict: every object closed). */
const PERSON = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Full name' },
    age: { type: 'integer', minimum: 18 },
    role: { type: 'string', enum: ['admin', 'member'] },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
    manager: { anyOf: [{ $ref: '#/$defs/ref' }, { type: 'null' }] },
    active: { type: ['boolean', 'null'] },
  },
  required: ['name', 'age', 'role', 'tags', 'manager', 'active'],
  additionalProperties: false,
  $defs: { ref: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } },
};
const PERSON_FORMAT = { type: 'json_schema', json_schema: { name: 'person', schema: PERSON, strict: true } } as const;

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  return error as InstanceType<typeof OpenAI.BadRequestError>;
};

describe('response_format with test keys (the sandbox)', () => {
  let gateway: LiveGateway;
  let client: OpenAI;

  beforeAll(async () => {
    gateway = await startGateway();
    const { key } = await createAccountWithKey(gateway.app, 'free', { environment: 'test' });
    client = sdk(gateway.origin, key, { maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers JSON mode with one JSON object naming the model and quoting the caller', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'List three colours as JSON' }],
      response_format: { type: 'json_object' },
    });
    const answer = JSON.parse(completion.choices[0]?.message.content ?? '');
    expect(answer.model).toBe('gpt-4o-mini');
    expect(answer.reply).toContain('List three colours as JSON');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(10);
  });

  it('answers a json_schema request with a value of that schema, $ref and enums included', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Describe a person' }],
      response_format: PERSON_FORMAT,
    });
    const person = JSON.parse(completion.choices[0]?.message.content ?? '');
    expect(Object.keys(person)).toEqual(['name', 'age', 'role', 'tags', 'manager', 'active']);
    expect(person.name).toContain('Describe a person');
    expect(person.age).toBe(18);
    expect(person.role).toBe('admin');
    expect(person.tags).toEqual(['tags', 'tags']);
    expect(person.manager).toEqual({ id: 'id' });
    expect(person.active).toBe(false);
  });

  it('streams JSON mode as chunks that join into the same JSON', async () => {
    const stream = await client.chat.completions.create({
      model: 'mistral-small-latest',
      messages: [{ role: 'user', content: 'Stream JSON' }],
      response_format: { type: 'json_object' },
      stream: true,
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(chunks).toBeGreaterThan(5);
    expect(JSON.parse(text)).toMatchObject({ model: 'mistral-small-latest' });
  });

  it('refuses JSON output from a model that has none, naming the models that do', async () => {
    const error = await refusal(
      client.chat.completions.create({
        model: 'claude-3-5-sonnet',
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: { type: 'json_object' },
      }),
    );
    expect(error.code).toBe('unsupported_parameter');
    expect(error.param).toBe('response_format');
    expect(error.message).toMatch(
      /^400 response_format 'json_object' is not supported by claude-3-5-sonnet\. Models that support it: gpt-4o, /,
    );
    const named = error.message.split('Models that support it: ')[1] ?? '';
    expect(named).toContain('command-r');
    expect(named).not.toContain('claude');
    expect(named).not.toContain('gemini-pro');
  });

  it('tells JSON mode from structured outputs: gpt-4-turbo has the first only', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4-turbo',
      messages: [{ role: 'user', content: 'Hi' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toHaveProperty('reply');
    const error = await refusal(
      client.chat.completions.create({ model: 'gpt-4-turbo', messages: [{ role: 'user', content: 'Hi' }], response_format: PERSON_FORMAT }),
    );
    expect(error.message).toContain("response_format 'json_schema' is not supported by gpt-4-turbo");
  });

  it('takes response_format text and null as plain text', async () => {
    for (const format of [{ type: 'text' as const }, null]) {
      const completion = await client.chat.completions.create({
        model: 'claude-3-5-haiku',
        messages: [{ role: 'user', content: 'Hi' }],
        // The SDK's types leave out null, which the OpenAI API takes as "absent".
        response_format: format as { type: 'text' },
      });
      expect(completion.choices[0]?.message.content).toMatch(/^Sandbox reply from claude-3-5-haiku/);
    }
  });

  it('refuses a malformed response_format with 400 invalid_request naming the member', async () => {
    const error = await refusal(
      client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'not a name' } },
      }),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('response_format.json_schema.name');
  });
});

describe('response_format through every provider that has it', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;
  let client: OpenAI;

  beforeAll(async () => {
    fakes = await startFakes(PROVIDER_IDS);
    gateway = await startGateway(upstreamEnv(fakes));
    const { key } = await createAccountWithKey(gateway.app, 'enterprise');
    client = sdk(gateway.origin, key, { maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  /** What the provider's fake received for the next request. */
  async function sent(provider: ProviderId, request: () => Promise<unknown>): Promise<Record<string, unknown>> {
    const before = fake(fakes, provider).requests.length;
    await request();
    const requests = fake(fakes, provider).requests.slice(before);
    expect(requests).toHaveLength(1);
    return requests[0]?.body as Record<string, unknown>;
  }
  const chat =
    (model: string, response_format: OpenAI.ChatCompletionCreateParams['response_format'], stream = false) =>
    () =>
      stream
        ? client.chat.completions
            .create({ model, messages: [{ role: 'user', content: 'Hi' }], response_format, stream: true })
            .then(async (chunks) => {
              for await (const _ of chunks);
            })
        : client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], response_format });

  it.each([
    ['openai', 'gpt-4o'],
    ['azure', 'azure-gpt-4o'],
    ['mistral', 'mistral-large-latest'],
  ] as const)('%s takes response_format as sent, in the OpenAI wire format', async (provider, model) => {
    expect((await sent(provider, chat(model, { type: 'json_object' }))).response_format).toEqual({ type: 'json_object' });
    expect((await sent(provider, chat(model, PERSON_FORMAT, true))).response_format).toEqual(PERSON_FORMAT);
    expect(await sent(provider, chat(model, { type: 'text' }))).not.toHaveProperty('response_format');
  });

  it('Gemini gets application/json, and the schema as its responseSchema', async () => {
    const jsonMode = await sent('google', chat('gemini-1.5-flash', { type: 'json_object' }));
    expect(jsonMode.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(jsonMode.generationConfig).not.toHaveProperty('responseSchema');
    const structured = await sent('google', chat('gemini-1.5-pro', PERSON_FORMAT, true));
    expect((structured.generationConfig as Record<string, unknown>).responseSchema).toEqual({
      type: 'OBJECT',
      properties: {
        name: { type: 'STRING', description: 'Full name' },
        age: { type: 'INTEGER', minimum: 18 },
        role: { type: 'STRING', enum: ['admin', 'member'] },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 2 },
        manager: { type: 'OBJECT', properties: { id: { type: 'STRING' } }, propertyOrdering: ['id'], required: ['id'], nullable: true },
        active: { type: 'BOOLEAN', nullable: true },
      },
      propertyOrdering: ['name', 'age', 'role', 'tags', 'manager', 'active'],
      required: ['name', 'age', 'role', 'tags', 'manager', 'active'],
    });
  });

  it('Cohere gets json_object with the schema as its json_schema', async () => {
    expect((await sent('cohere', chat('command-r', { type: 'json_object' }))).response_format).toEqual({ type: 'json_object' });
    expect((await sent('cohere', chat('command-r-plus', PERSON_FORMAT))).response_format).toEqual({
      type: 'json_object',
      json_schema: PERSON,
    });
  });

  it('passes over targets without JSON output, and says so in the route header', async () => {
    const before = fake(fakes, 'anthropic').requests.length;
    const { data, response } = await client.chat.completions
      .create({
        model: 'claude-3-5-sonnet',
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: { type: 'json_object' },
        // @ts-expect-error Conductor's routing extension
        conductor: {
          strategy: 'fallback',
          targets: [
            { provider: 'anthropic', model: 'claude-3-5-sonnet' },
            { provider: 'openai', model: 'gpt-4o' },
          ],
        },
      })
      .withResponse();
    expect(data.model).toBe('gpt-4o');
    expect(response.headers.get('x-conductor-route')).toBe(
      'fallback (body); anthropic/claude-3-5-sonnet=unsupported-format, openai/gpt-4o=ok',
    );
    expect(fake(fakes, 'anthropic').requests.length).toBe(before);
  });

  it('cost routing serves the cheapest model of the class that has the format', async () => {
    const { data } = await client.chat.completions
      .create(
        { model: 'claude-3-5-sonnet', messages: [{ role: 'user', content: 'Hi' }], response_format: PERSON_FORMAT },
        { headers: { 'x-conductor-routing': 'cost' } },
      )
      .withResponse();
    expect(data.model).not.toMatch(/^claude/);
  });

  it('a schema Gemini cannot express is refused with 400, or served by the next target', async () => {
    const allOf = {
      type: 'json_schema' as const,
      json_schema: { name: 'both', schema: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] } },
    };
    const error = await refusal(
      client.chat.completions.create({ model: 'gemini-1.5-pro', messages: [{ role: 'user', content: 'Hi' }], response_format: allOf }),
    );
    expect(error.code).toBe('unsupported_parameter');
    expect(error.param).toBe('response_format');
    expect(error.message).toContain("Google Gemini cannot take this response_format JSON schema: 'allOf' at '/' has no equivalent");
    const served = await client.chat.completions.create({
      model: 'gemini-1.5-pro',
      messages: [{ role: 'user', content: 'Hi' }],
      response_format: allOf,
      // @ts-expect-error Conductor's routing extension
      conductor: {
        strategy: 'fallback',
        targets: [
          { provider: 'google', model: 'gemini-1.5-pro' },
          { provider: 'openai', model: 'gpt-4o' },
        ],
      },
    });
    expect(served.model).toBe('gpt-4o');
  });
});
