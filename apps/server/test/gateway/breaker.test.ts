import OpenAI, { type APIError } from 'openai';
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

const messages = [{ role: 'user' as const, content: 'Hello' }];
const COOLDOWN_MS = 600;

describe('circuit breaker per upstream', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;
  let client: OpenAI;
  let key: string;

  const providerHealth = async (id: string) => {
    const response = await fetch(`${gateway.origin}/v1/providers`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { data: { id: string; healthy: boolean }[] };
    return body.data.find((provider) => provider.id === id)?.healthy;
  };

  const metrics = async () => (await fetch(`${gateway.origin}/metrics`)).text();
  const sample = (body: string, line: RegExp) => Number(body.match(line)?.[1]);

  beforeAll(async () => {
    fakes = await startFakes(['openai', 'mistral']);
    gateway = await startGateway({
      ...upstreamEnv(fakes),
      GATEWAY_BREAKER_FAILURES: '2',
      GATEWAY_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
    });
    ({ key } = await createAccountWithKey(gateway.app, 'enterprise'));
    client = sdk(gateway.origin, key);
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('opens after consecutive failures, skips the upstream, half-opens after the cooldown and closes on a good probe', async () => {
    const openai = fake(fakes, 'openai');
    openai.setBehaviour({ kind: 'status', status: 500 });

    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(OpenAI.InternalServerError);
    expect((first as APIError).status).toBe(502);
    expect(openai.requests).toHaveLength(2);
    expect((first as APIError).headers?.get('x-conductor-route')).toBe(
      'single (default); openai/gpt-4o-mini=500, openai/gpt-4o-mini=500, openai/gpt-4o-mini=circuit-open',
    );
    expect(await providerHealth('openai')).toBe(false);
    const health = (await (await fetch(`${gateway.origin}/v1/health`)).json()) as {
      checks: { gateway: string };
      providers: { available: number };
    };
    expect(health.checks.gateway).toBe('degraded');
    expect(health.providers.available).toBe(1);
    // The metrics show the two failed attempts, their error type and the open circuit.
    const failing = await metrics();
    expect(sample(failing, /^conductor_gateway_upstream_duration_seconds_count\{provider="openai",outcome="500"\} (\d+)$/m)).toBe(2);
    expect(sample(failing, /^conductor_gateway_upstream_errors_total\{provider="openai",type="[a-z_]+"\} (\d+)$/m)).toBe(2);
    expect(sample(failing, /^conductor_gateway_breaker_state\{upstream="openai [^"]+"\} (\d+)$/m)).toBe(2);

    const skipped = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((error: unknown) => error);
    expect(skipped).toBeInstanceOf(OpenAI.APIError);
    expect((skipped as APIError).status).toBe(503);
    expect((skipped as APIError).code).toBe('no_healthy_provider');
    expect(Number((skipped as APIError).headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(openai.requests).toHaveLength(2);

    // Cost routing skips the open circuit and serves the next cheapest healthy model.
    const rerouted = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages },
      { headers: { 'x-conductor-routing': 'cost' } },
    );
    expect(rerouted.model).toBe('mistral-small-latest');

    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
    expect(await providerHealth('openai')).toBe(true);
    openai.setBehaviour({ kind: 'ok' });
    const recovered = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(recovered.model).toBe('gpt-4o-mini');
    expect(await providerHealth('openai')).toBe(true);
    const closed = await metrics();
    expect(sample(closed, /^conductor_gateway_breaker_state\{upstream="openai [^"]+"\} (\d+)$/m)).toBe(0);
    expect(sample(closed, /^conductor_gateway_upstream_duration_seconds_count\{provider="openai",outcome="ok"\} (\d+)$/m)).toBe(1);
    expect(sample(closed, /^conductor_gateway_upstream_duration_seconds_count\{provider="mistral",outcome="ok"\} (\d+)$/m)).toBe(1);
  });

  it('re-opens at once when the half-open probe fails', async () => {
    const openai = fake(fakes, 'openai');
    openai.reset();
    openai.setBehaviour({ kind: 'status', status: 503 });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch(() => undefined);
    expect(await providerHealth('openai')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
    const requestsBefore = openai.requests.length;
    const probe = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((error: unknown) => error);
    expect(probe).toBeInstanceOf(OpenAI.APIError);
    expect(openai.requests.length).toBe(requestsBefore + 1);
    expect(await providerHealth('openai')).toBe(false);
    openai.setBehaviour({ kind: 'ok' });
  });
});

describe('circuit breaker and streams', () => {
  it('counts a stream that breaks after its first byte against the upstream: one that always dies mid-way is skipped', async () => {
    const fakes = await startFakes(['openai']);
    const gateway = await startGateway({ ...upstreamEnv(fakes), GATEWAY_BREAKER_FAILURES: '2', GATEWAY_BREAKER_COOLDOWN_MS: '60000' });
    try {
      const { key } = await createAccountWithKey(gateway.app, 'enterprise');
      const client = sdk(gateway.origin, key);
      const openai = fake(fakes, 'openai');
      openai.setBehaviour({ kind: 'break-stream', afterEvents: 3, text: 'one two three four five six' });
      for (let request = 0; request < 2; request += 1) {
        const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
        const broken = await (async () => {
          for await (const _chunk of stream);
        })().catch((error: unknown) => error);
        expect(broken).toBeInstanceOf(OpenAI.APIError);
      }
      const skipped = await client.chat.completions
        .create({ model: 'gpt-4o-mini', messages, stream: true })
        .catch((error: unknown) => error);
      expect((skipped as APIError).status).toBe(503);
      expect((skipped as APIError).code).toBe('no_healthy_provider');
      expect(openai.requests).toHaveLength(2);
    } finally {
      await gateway.close();
      await closeFakes(fakes);
    }
  });
});

describe('circuit breaker time', () => {
  it('runs on the monotonic clock: setting the wall clock neither holds a circuit open nor closes it early', async () => {
    const fakes = await startFakes(['openai']);
    const time = { wall: Date.parse('2026-11-28T12:00:00Z'), monotonic: 1_000 };
    const gateway = await startGateway(
      { ...upstreamEnv(fakes), GATEWAY_BREAKER_FAILURES: '1', GATEWAY_BREAKER_COOLDOWN_MS: '60000' },
      { clock: { now: () => time.wall, monotonic: () => time.monotonic } },
    );
    try {
      const { key } = await createAccountWithKey(gateway.app, 'enterprise');
      const client = sdk(gateway.origin, key);
      const health = async () => {
        const response = await fetch(`${gateway.origin}/v1/providers`, { headers: { authorization: `Bearer ${key}` } });
        return ((await response.json()) as { data: { id: string; healthy: boolean }[] }).data.find((p) => p.id === 'openai')?.healthy;
      };
      const openai = fake(fakes, 'openai');
      openai.setBehaviour({ kind: 'status', status: 500 });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch(() => undefined);
      expect(await health()).toBe(false);

      // The wall clock is set an hour ahead: the minute's cool-down has not passed.
      time.wall += 60 * 60_000;
      expect(await health()).toBe(false);
      // Set back two hours: the circuit is not held open for them either.
      time.wall -= 2 * 60 * 60_000;
      time.monotonic += 60_000;
      expect(await health()).toBe(true);
      openai.setBehaviour({ kind: 'ok' });
      expect((await client.chat.completions.create({ model: 'gpt-4o-mini', messages })).model).toBe('gpt-4o-mini');
    } finally {
      await gateway.close();
      await closeFakes(fakes);
    }
  });
});
