import { eq } from 'drizzle-orm';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usageDaily, usageEvents, users } from '../../src/db/schema/index.ts';
import { invalidateAccountCache, invalidateProviderKeyCache } from '../../src/gateway/gateway.plugin.ts';
import { deleteProviderKey, upsertProviderKey } from '../../src/modules/provider-keys/provider-keys.repository.ts';
import { currentUsage } from '../../src/modules/usage/usage.service.ts';
import {
  addKey,
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  type LiveGateway,
  manualClock,
  resetFakes,
  sdk,
  seedUsage,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const messages = [{ role: 'user' as const, content: 'Hi' }];
// Mid-month, a few seconds into a minute: rate windows are whole UTC minutes.
const clock = manualClock(Date.UTC(2025, 5, 15, 12, 0, 5));

describe('plan limits (in-memory store)', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['openai']);
    gateway = await startGateway(upstreamEnv(fakes), { clock });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });
  beforeEach(() => resetFakes(fakes));

  it('allows the plan’s requests per minute, then answers 429 with Retry-After until the next minute', async () => {
    const { key } = await createAccountWithKey(gateway.app, 'free', { environment: 'test' });
    const client = sdk(gateway.origin, key);
    for (let index = 0; index < 10; index += 1) await client.chat.completions.create({ model: 'gpt-4o', messages });
    const error = await client.chat.completions.create({ model: 'gpt-4o', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as APIError;
    expect(apiError.code).toBe('rate_limit_exceeded');
    expect(apiError.message).toMatch(/Free plan allows 10 requests per minute\. Retry in 55 s\./);
    expect(apiError.headers?.get('retry-after')).toBe('55');
    clock.advance(60_000);
    await expect(client.chat.completions.create({ model: 'gpt-4o', messages })).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it('refuses live requests once the monthly token quota is spent, with a clear message; test keys go on', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, userId, 10_000, new Date(clock.now()));
    const error = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as APIError;
    expect(apiError.type).toBe('insufficient_quota');
    expect(apiError.code).toBe('quota_exceeded');
    expect(apiError.message).toContain('10,000 of 10,000 tokens used this month on the Free plan');
    expect(apiError.message).toContain('resets on 2025-07-01');
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(Number(apiError.headers?.get('retry-after'))).toBeGreaterThan(86_400);
    expect(fake(fakes, 'openai').requests).toHaveLength(0);

    const { key: testKey } = await addKey(gateway.app, userId, { environment: 'test' });
    const sandboxed = await sdk(gateway.origin, testKey).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(sandboxed.choices[0]?.message.content).toContain('gpt-4o-mini');
  });

  it('counts the tokens of a spell on Pro when the account is back on Free in the same month', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    const client = sdk(gateway.origin, key);
    // A first request loads the month's count (nothing used yet).
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    // Then Pro for a while: its 50,000 tokens are metered, but a plan without a quota is not counted by the limits.
    await seedUsage(gateway.app, userId, 50_000, new Date(clock.now()));
    // Back on Free: the plan change invalidates the account, as billing's changePlan does after its commit.
    await gateway.app.context.database.db.update(users).set({ plan: 'free' }).where(eq(users.id, userId));
    invalidateAccountCache(userId);
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((caught: unknown) => caught);
    expect((error as APIError).code).toBe('quota_exceeded');
    expect((error as APIError).message).toMatch(/5\d,\d{3} of 10,000 tokens used this month on the Free plan/);
  });

  it('keeps serving a Pro account past its quota (the excess is billed as overage, not refused)', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'pro');
    await seedUsage(gateway.app, userId, 1_200_000, new Date(clock.now()));
    const completion = await sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.model).toBe('gpt-4o-mini');
  });

  it('holds reservations for requests in flight so concurrent requests cannot overshoot the quota', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, userId, 9_000, new Date(clock.now()));
    fake(fakes, 'openai').setBehaviour({ kind: 'ok', delayMs: 300 });
    const client = sdk(gateway.origin, key);
    const outcomes = await Promise.all(
      Array.from(
        { length: 5 },
        (): Promise<string | null | undefined> =>
          client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 300 }).then(
            () => 'ok',
            (error: unknown) => (error as APIError).code,
          ),
      ),
    );
    // Each holds 7 prompt + 300 completion tokens: three fit whole, a fourth fits with a smaller budget.
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(4);
    // The fifth is refused for what the others hold, not for what was used: a short, retryable 429.
    expect(outcomes.filter((outcome) => outcome === 'rate_limit_exceeded')).toHaveLength(1);
    const budgets = fake(fakes, 'openai')
      .requests.map((request) => (request.body as { max_tokens?: number }).max_tokens)
      .sort((left, right) => (left ?? 0) - (right ?? 0));
    expect(budgets).toEqual([1_000 - 3 * 307 - 7, 300, 300, 300]);
  });

  /** Settlement slowed down by `ms`, so whether it came before an answer shows; `settled()` counts those done. */
  function slowSettlement(ms: number) {
    const { limiter } = gateway.app.gateway;
    const settle = limiter.settle.bind(limiter);
    let done = 0;
    limiter.settle = async (reservation, tokens) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await settle(reservation, tokens);
      done += 1;
    };
    return { settled: () => done, restore: () => (limiter.settle = settle) };
  }

  const postChat = (key: string, max_tokens: number, stream: boolean, signal?: AbortSignal) =>
    fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages, max_tokens, stream }),
      ...(signal ? { signal } : {}),
    });

  /** A Free account with 9,000 of its 10,000 tokens used this month. */
  const tightAccount = async () => {
    const account = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, account.userId, 9_000, new Date(clock.now()));
    return account;
  };

  it('settles before answering a call that leaves too little of the quota for a like one, and after answering otherwise', async () => {
    const slow = slowSettlement(150);
    const call = async (key: string, max_tokens: number, stream: boolean) => {
      const response = await postChat(key, max_tokens, stream);
      const text = await response.text(); // the whole answer, to its last byte
      expect(response.status, text).toBe(200);
      if (stream) expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
      return slow.settled();
    };
    try {
      // 10,000 tokens left, 27 held: plenty for another like call, so the answer does not wait.
      const roomy = await createAccountWithKey(gateway.app, 'free');
      expect(await call(roomy.key, 20, false)).toBe(0);
      await expect.poll(() => slow.settled()).toBe(1);
      expect(await call(roomy.key, 20, true)).toBe(1);
      await expect.poll(() => slow.settled()).toBe(2);

      // 1,000 left, 607 held (7 prompt + 600 completion): a like call would not fit until this one settles.
      const tight = await tightAccount();
      expect(await call(tight.key, 600, false)).toBe(3);
      expect(await call(tight.key, 600, true)).toBe(4);
      // Each reservation is settled once: the settlement before the answer is not repeated after it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(slow.settled()).toBe(4);
    } finally {
      slow.restore();
    }
  });

  it('meters a client that leaves while its answer waits for the settlement as gone (499), JSON or stream', async () => {
    const slow = slowSettlement(600);
    try {
      const tight = await tightAccount();
      for (const stream of [false, true]) {
        const leaving = new AbortController();
        const sent = postChat(tight.key, 600, stream, leaving.signal).then((response) => response.text());
        await new Promise((resolve) => setTimeout(resolve, 200));
        leaving.abort();
        await expect(sent).rejects.toThrow();
        await expect.poll(() => slow.settled(), { timeout: 3_000 }).toBe(stream ? 2 : 1);
      }
      await gateway.app.gateway.meter.flush();
      const events = await gateway.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, tight.userId));
      // The seeded month's usage (9,000 tokens, 200) and the two calls.
      expect(events.map((event) => [event.promptTokens === 9_000, event.streamed, event.statusCode, event.errorType]).sort()).toEqual([
        [false, false, 499, 'client_closed'],
        [false, true, 499, 'client_closed'],
        [true, false, 200, null],
      ]);
    } finally {
      slow.restore();
    }
  });

  it('answers after at most a second when the settlement is slower, and settles all the same', async () => {
    const slow = slowSettlement(2_500);
    try {
      const tight = await tightAccount();
      const started = performance.now();
      const response = await postChat(tight.key, 600, false);
      expect(response.status).toBe(200);
      await response.text();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(slow.settled()).toBe(0);
      await expect.poll(() => slow.settled(), { timeout: 5_000 }).toBe(1);
    } finally {
      slow.restore();
    }
  });

  it('a provider this server has no endpoint for (Azure without AZURE_OPENAI_BASE_URL) is refused as such with an own key that has none', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'enterprise');
    const { db } = gateway.app.context.database;
    await upsertProviderKey(
      db,
      gateway.app.context.secrets.encryptionKey,
      userId,
      'azure',
      '0123456789abcdef0123456789abcdef',
      clock.now(),
    );
    invalidateProviderKeyCache(userId);
    const refused = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'azure-gpt-4o', messages })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as APIError).code).toBe('provider_not_configured');
    expect((refused as APIError).message).toBe(
      '400 Azure OpenAI is not configured on this server: add your own key with its resource URL in the dashboard, or choose another model.',
    );
  });

  it('counts no token quota on the byo-keys plan, which uses only the account’s own keys', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'byo-keys');
    await seedUsage(gateway.app, userId, 5_000_000, new Date(clock.now()));
    const missing = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages })
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(OpenAI.BadRequestError);
    expect((missing as APIError).code).toBe('provider_not_configured');
    await upsertProviderKey(
      gateway.app.context.database.db,
      gateway.app.context.secrets.encryptionKey,
      userId,
      'openai',
      'sk-byoPlanUserKey0001',
      clock.now(),
    );
    const { invalidateProviderKeyCache } = await import('../../src/gateway/gateway.plugin.ts');
    invalidateProviderKeyCache(userId);
    const completion = await sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.model).toBe('gpt-4o-mini');
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe('sk-byoPlanUserKey0001');
  });

  it('serves traffic on the account’s own provider key outside the quota, and meters it as own-key tokens', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, userId, 10_000, new Date(clock.now()));
    const db = gateway.app.context.database.db;
    const client = sdk(gateway.origin, key);
    const quotaRefusal = async () => {
      const refused = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((caught: unknown) => caught);
      expect((refused as APIError).code).toBe('quota_exceeded');
      return (refused as APIError).message;
    };
    expect(await quotaRefusal()).toContain('10,000 of 10,000 tokens used this month on the Free plan');
    await upsertProviderKey(db, gateway.app.context.secrets.encryptionKey, userId, 'openai', 'sk-freePlanOwnKey0001', clock.now());
    invalidateProviderKeyCache(userId);

    // The quota is spent, but the provider bills this traffic to the account: served, with the budget it asked for.
    const { data: completion, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages, max_tokens: 5_000 })
      .withResponse();
    expect(completion.object).toBe('chat.completion');
    const upstream = fake(fakes, 'openai').requests.at(-1);
    expect(upstream?.apiKey).toBe('sk-freePlanOwnKey0001');
    expect((upstream?.body as { max_tokens?: number } | undefined)?.max_tokens).toBe(5_000);

    await gateway.app.gateway.meter.flush();
    const [event] = await db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.requestId, response.headers.get('x-request-id') ?? ''));
    expect(event?.keySource).toBe('byok');
    const days = await db.select().from(usageDaily).where(eq(usageDaily.userId, userId));
    expect(days.reduce((sum, day) => sum + day.ownKeyTokens, 0)).toBe(completion.usage?.total_tokens);
    expect(await currentUsage(db, { id: userId, plan: 'free' }, clock.now())).toMatchObject({
      tokensUsed: 10_000,
      ownKeyTokens: completion.usage?.total_tokens,
    });

    // Without the key, the server's key would serve it: the quota applies, untouched by the own-key tokens.
    await deleteProviderKey(db, userId, 'openai');
    invalidateProviderKeyCache(userId);
    expect(await quotaRefusal()).toContain('10,000 of 10,000 tokens used this month on the Free plan');
  });
});

describe('plan limits with the server’s keys and the account’s own', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['openai', 'mistral']);
    gateway = await startGateway(upstreamEnv(fakes), { clock });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });
  beforeEach(() => resetFakes(fakes));

  it('a spent quota leaves a fallback list to the targets on the account’s own keys', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, userId, 10_000, new Date(clock.now()));
    const db = gateway.app.context.database.db;
    await upsertProviderKey(db, gateway.app.context.secrets.encryptionKey, userId, 'mistral', 'freePlanOwnMistralKey0001', clock.now());
    invalidateProviderKeyCache(userId);
    const routing = JSON.stringify({
      strategy: 'fallback',
      targets: [
        { provider: 'openai', model: 'gpt-4o-mini' },
        { provider: 'mistral', model: 'mistral-small-latest' },
      ],
    });
    const { data: completion, response } = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': routing } })
      .withResponse();
    expect(completion.object).toBe('chat.completion');
    expect(response.headers.get('x-conductor-provider')).toBe('mistral');
    expect(response.headers.get('x-conductor-route')).toContain('openai/gpt-4o-mini=quota');
    expect(fake(fakes, 'openai').requests).toHaveLength(0);
    expect(fake(fakes, 'mistral').requests.at(-1)?.apiKey).toBe('freePlanOwnMistralKey0001');
  });

  it('near the end of the quota caps max_tokens for the server’s keys only; the account’s own key gets what was asked', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    await seedUsage(gateway.app, userId, 9_900, new Date(clock.now()));
    const db = gateway.app.context.database.db;
    await upsertProviderKey(db, gateway.app.context.secrets.encryptionKey, userId, 'mistral', 'freePlanOwnMistralKey0002', clock.now());
    invalidateProviderKeyCache(userId);
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 500 });
    const routing = JSON.stringify({
      strategy: 'fallback',
      targets: [
        { provider: 'openai', model: 'gpt-4o-mini' },
        { provider: 'mistral', model: 'mistral-small-latest' },
      ],
    });
    const { response } = await sdk(gateway.origin, key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages, max_tokens: 5_000 },
        { headers: { 'x-conductor-routing': routing }, maxRetries: 0 },
      )
      .withResponse();
    expect(response.headers.get('x-conductor-provider')).toBe('mistral');
    const hosted = fake(fakes, 'openai').requests.at(-1)?.body as { max_tokens?: number } | undefined;
    expect(hosted?.max_tokens).toBeLessThan(100);
    const own = fake(fakes, 'mistral').requests.at(-1)?.body as { max_tokens?: number } | undefined;
    expect(own?.max_tokens).toBe(5_000);
  });
});

describe('plan limits across the end of a month', () => {
  // Three tenths of a second before August starts (UTC).
  const monthEnd = manualClock(Date.UTC(2025, 7, 1) - 300);
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['openai']);
    gateway = await startGateway({ ...upstreamEnv(fakes), GATEWAY_USAGE_FLUSH_MS: '60000' }, { clock: monthEnd });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('meters a request that finishes in the next month in the month it was admitted, where its reservation is settled', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free');
    fake(fakes, 'openai').setBehaviour({ kind: 'ok', delayMs: 300 });
    const pending = sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    // The request is in flight (admitted in July) when the month turns.
    await new Promise((resolve) => setTimeout(resolve, 100));
    monthEnd.advance(1_000);
    const { data: completion, response } = await pending;
    await gateway.app.gateway.meter.flush();

    const db = gateway.app.context.database.db;
    const [event] = await db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.requestId, response.headers.get('x-request-id') ?? ''));
    expect(event?.createdAt.toISOString()).toBe('2025-07-31T23:59:59.700Z');
    expect(event?.promptTokens).toBe(completion.usage?.prompt_tokens);
    const [day] = await db.select().from(usageDaily).where(eq(usageDaily.userId, userId));
    expect(day?.day).toBe('2025-07-31');
    expect(Number(day?.promptTokens) + Number(day?.completionTokens)).toBe(completion.usage?.total_tokens);
  });
});
