import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../db/schema/index.ts';
import { createAccountWithKey, type LiveGateway, startGateway } from '../../../test/gateway/gateway-helpers.ts';

/**
 * The sandbox refuses what the provider would: a prompt and completion budget over the model's
 * context window (gpt-3.5-turbo: 16,385 tokens), as OpenAI answers it.
 */
describe('sandbox context window through the gateway', () => {
  let gateway: LiveGateway;
  let key: string;
  let userId: string;

  beforeAll(async () => {
    gateway = await startGateway();
    ({ key, userId } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' }));
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const post = (body: Record<string, unknown>) =>
    fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // o200k: `words` times "word " is words + 1 tokens; with the framing (3 + 3 + 1 for the role) the prompt is words + 8.
  const prompt = (words: number) => ({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'word '.repeat(words) }] });

  it('answers 400 context_length_exceeded for a prompt over the window, in JSON and before any SSE byte', async () => {
    const expected = {
      error: {
        message:
          "This model's maximum context length is 16385 tokens. However, you requested 100013 tokens (100008 in the messages, 5 in the completion). Please reduce the length of the messages or completion.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    };
    const json = await post({ ...prompt(100_000), max_tokens: 5 });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual(expected);
    expect(json.headers.get('x-conductor-route')).toContain('openai/gpt-3.5-turbo=400');

    const stream = await post({ ...prompt(100_000), max_tokens: 5, stream: true, stream_options: { include_usage: true } });
    expect(stream.status).toBe(400);
    expect(stream.headers.get('content-type')).toContain('application/json');
    expect(await stream.json()).toEqual(expected);

    // max_completion_tokens is the completion budget too; without one, the messages alone are checked.
    const completionBudget = await post({ ...prompt(16_000), max_completion_tokens: 1_000 });
    expect(completionBudget.status).toBe(400);
    expect(((await completionBudget.json()) as typeof expected).error.message).toContain('(16008 in the messages, 1000 in the completion)');
    const noBudget = await post(prompt(20_000));
    expect(((await noBudget.json()) as typeof expected).error).toMatchObject({
      code: 'context_length_exceeded',
      message:
        "This model's maximum context length is 16385 tokens. However, your messages resulted in 20008 tokens. Please reduce the length of the messages.",
    });
  });

  it('serves a request that just fits the window, in JSON and streamed', async () => {
    const json = await post({ ...prompt(16_000), max_tokens: 377 });
    expect(json.status).toBe(200);
    const completion = (await json.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    expect(completion.usage.prompt_tokens).toBe(16_008);
    expect(completion.usage.completion_tokens).toBeGreaterThan(0);

    const stream = await post({ ...prompt(16_000), max_tokens: 377, stream: true });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(await stream.text()).toMatch(/data: \[DONE\]\n\n$/);

    const over = await post({ ...prompt(16_000), max_tokens: 378 });
    expect(over.status).toBe(400);
    await over.body?.cancel();
  });

  it('meters a refusal as other refusals are: the status, the error type, no tokens', async () => {
    const refused = await post({ ...prompt(100_000), max_tokens: 5, stream: true });
    const requestId = refused.headers.get('x-request-id');
    await refused.body?.cancel();
    await gateway.app.gateway.meter.flush();
    const events = await gateway.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(events.find((event) => event.requestId === requestId)).toMatchObject({
      environment: 'test',
      model: 'gpt-3.5-turbo',
      statusCode: 400,
      errorType: 'invalid_request_error',
      promptTokens: 0,
      completionTokens: 0,
      costMicros: 0,
      streamed: false,
    });
  });

  it('answers a self-referencing json_schema (13 properties each a $ref to their object) with a bounded example', async () => {
    const properties = Object.fromEntries(Array.from({ length: 13 }, (_, index) => [`p${index}`, { $ref: '#/$defs/n' }]));
    const schema = { $defs: { n: { type: 'object', properties } }, $ref: '#/$defs/n' };
    const request = {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema } },
    };
    const cut = await post({ ...request, max_tokens: 5 });
    expect(cut.status).toBe(200);
    expect(((await cut.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(5);
    const whole = (await (await post(request)).json()) as { choices: { message: { content: string } }[] };
    const content = whole.choices[0]?.message.content ?? '';
    expect(content.length).toBeLessThan(40_000);
    expect(Object.keys(JSON.parse(content) as object)).toEqual(['p0']);
  });
});
