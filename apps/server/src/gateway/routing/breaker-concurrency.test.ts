import { findModel, type ModelInfo } from '@conductor/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpstreamError } from '../providers/types.ts';
import { Cancellation } from '../transport/cancellation.ts';
import { BreakerRegistry, CircuitBreaker } from './circuit-breaker.ts';
import { AttemptFailure, ClientClosedError, type ResolvedTarget, RouteLog, runWithFailover } from './failover.ts';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from './retry-policy.ts';
import { planTargets } from './strategies.ts';

const model = (id: string) => findModel(id) as ModelInfo;
/** The ticket a request gets now (the test fails if the breaker refuses it). */
const ticket = (breaker: CircuitBreaker, now: number) => breaker.tryAcquire(now) ?? expect.unreachable(`no ticket at ${now}`);

function target(id: string, breakerKey = `${model(id).provider} https://upstream`): ResolvedTarget {
  return { model: model(id), breakerKey, keySource: 'hosted' } as unknown as ResolvedTarget;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, ko) => {
    resolve = ok;
    reject = ko;
  });
  return { promise, resolve, reject };
}

const serverError: UpstreamError = { status: 502, type: 'upstream_error', message: 'boom', disposition: 'retryable' };
const rateLimited: UpstreamError = {
  status: 429,
  type: 'rate_limit_error',
  message: 'slow down',
  disposition: 'retryable',
  retryAfterMs: 30_000,
};

function deps(breakers: BreakerRegistry, clock: { t: number }, cancel = new Cancellation()) {
  return {
    breakers,
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
    now: () => clock.t,
    cancel,
    route: new RouteLog('fallback', 'header'),
    onWait: () => undefined,
  };
}

describe('circuit breaker under concurrency', () => {
  it('a success from a request admitted before the circuit opened does not close it', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 1_000 });
    const slow = ticket(breaker, 0); // slow request A, admitted while closed
    const failing = ticket(breaker, 0); // request B
    breaker.onFailure(10, failing); // B fails: the circuit opens
    expect(breaker.state(20)).toBe('open');
    breaker.onSuccess(slow); // A finally answers: its verdict predates the opening
    expect(breaker.state(20)).toBe('open');
    breaker.onFailure(500, slow); // nor does a stale failure push the cooldown back
    expect(breaker.retryInMs(20)).toBe(990);
  });

  it('a stale success while the half-open probe is in flight does not close the circuit / admit everyone', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 100 });
    const stale = ticket(breaker, 0); // request A
    breaker.onFailure(0, ticket(breaker, 0)); // another fails: the circuit opens
    expect(breaker.tryAcquire(100)?.probe).toBe(true); // the single probe
    breaker.onSuccess(stale); // A's success, not the probe's
    // Only the probe decides: no further request gets through until it answers.
    expect(breaker.tryAcquire(100)).toBeUndefined();
  });

  it('a client disconnect on a non-probe request does not hand out a second half-open probe (via runWithFailover)', async () => {
    const breakers = new BreakerRegistry({ failureThreshold: 1, cooldownMs: 100 });
    const clock = { t: 0 };
    const t = target('gpt-4o');
    const calls: string[] = [];

    // Request A: admitted while closed, still waiting on the upstream.
    const cancelA = new Cancellation();
    const slowA = deferred<string>();
    const a = runWithFailover([t], deps(breakers, clock, cancelA), () => {
      calls.push('A');
      return slowA.promise;
    });
    // Request B: fails with a 5xx, which opens the circuit.
    await expect(
      runWithFailover([t], deps(breakers, clock), async () => {
        calls.push('B');
        throw new AttemptFailure(serverError, 'bad-response', true);
      }),
    ).rejects.toBeDefined();
    expect(breakers.get(t.breakerKey).state(clock.t)).toBe('open');

    clock.t = 100; // cool-down over: half-open
    const probe = deferred<string>();
    const c = runWithFailover([t], deps(breakers, clock), () => {
      calls.push('C-probe');
      return probe.promise;
    });
    await Promise.resolve();

    // A's client goes away: its attempt ends without a verdict (it was not the probe).
    cancelA.abort();
    slowA.reject(new ClientClosedError());
    await expect(a).rejects.toBeInstanceOf(ClientClosedError);

    // Request D arrives while the probe C is still in flight.
    const d = runWithFailover([t], deps(breakers, clock), async () => {
      calls.push('D');
      return 'd';
    }).catch((error: unknown) => error);
    await d;
    probe.resolve('c');
    await c;
    // D is refused (circuit open): exactly one probe is allowed, and A's end did not free its slot.
    expect(calls).toEqual(['A', 'B', 'C-probe']);
  });

  it('a wall-clock step backwards does not keep the circuit open for longer than the cool-down', () => {
    // The runtime injects clock.now = Date.now (wall clock, not monotonic).
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 30_000 });
    const openedAt = 1_700_000_000_000;
    breaker.onFailure(openedAt, ticket(breaker, openedAt));
    // NTP steps the clock back one hour; 30 s of real time then pass.
    const later = openedAt - 3_600_000 + 30_000;
    expect(breaker.retryInMs(later)).toBe(30_000);
  });
});

describe('failover with duplicate targets', () => {
  it('does not call the same upstream model twice, and not right after a 429 that asked for 30 s', async () => {
    const plan = planTargets({
      policy: {
        strategy: 'fallback',
        targets: [
          { provider: 'openai', model: 'gpt-4o' },
          { provider: 'openai', model: 'gpt-4o' },
          { provider: 'anthropic', model: 'claude-3-5-haiku' },
        ],
      },
      requested: undefined,
      available: () => true,
      healthy: () => true,
    });
    const targets = plan.targets.map((planned) => target(planned.model.id));
    const breakers = new BreakerRegistry({ failureThreshold: 5, cooldownMs: 1_000 });
    const calls: string[] = [];
    await runWithFailover(targets, deps(breakers, { t: 0 }), async (candidate) => {
      calls.push(candidate.model.id);
      if (candidate.model.provider === 'openai') throw new AttemptFailure(rateLimited, '429', false);
      return 'ok';
    });
    expect(calls).toEqual(['gpt-4o', 'claude-3-5-haiku']);
  });
});

describe('retries of the last failed target', () => {
  const quick = (breakers: BreakerRegistry, clock: { t: number }) => ({
    ...deps(breakers, clock),
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
  const paymentRequired: UpstreamError = { status: 402, type: 'insufficient_quota', message: 'no credit', disposition: 'fallback' };

  it('retries the target that failed when the one after it is skipped with an open circuit', async () => {
    const breakers = new BreakerRegistry({ failureThreshold: 2, cooldownMs: 60_000 });
    const clock = { t: 0 };
    const [first, second] = [target('gpt-4o'), target('claude-3-5-haiku')];
    const open = breakers.get(second.breakerKey);
    for (let failure = 0; failure < 2; failure += 1) open.onFailure(0, ticket(open, 0));
    const options = quick(breakers, clock);
    const calls: string[] = [];
    const result = await runWithFailover([first, second], options, async (candidate) => {
      calls.push(candidate.model.id);
      if (calls.length === 1) throw new AttemptFailure(serverError, '502', true);
      return 'ok';
    });
    expect(result.value).toBe('ok');
    expect(calls).toEqual(['gpt-4o', 'gpt-4o']);
    expect(options.route.attempts).toEqual(['openai/gpt-4o=502', 'anthropic/claude-3-5-haiku=circuit-open', 'openai/gpt-4o=ok']);
  });

  it('does not go back to an earlier target when the last attempt failed over (402)', async () => {
    const breakers = new BreakerRegistry({ failureThreshold: 5, cooldownMs: 60_000 });
    const calls: string[] = [];
    const failing = runWithFailover([target('gpt-4o'), target('claude-3-5-haiku')], quick(breakers, { t: 0 }), async (candidate) => {
      calls.push(candidate.model.id);
      throw new AttemptFailure(candidate.model.provider === 'openai' ? serverError : paymentRequired, 'failed', true);
    });
    await expect(failing).rejects.toMatchObject({ status: 402 });
    expect(calls).toEqual(['gpt-4o', 'claude-3-5-haiku']);
  });

  it('with the verdict at the end, a stream broken mid-way counts as a failure and its start as no success', async () => {
    const breakers = new BreakerRegistry({ failureThreshold: 2, cooldownMs: 60_000 });
    const only = target('gpt-4o');
    const breaker = breakers.get(only.breakerKey);
    for (let stream = 0; stream < 2; stream += 1) {
      const result = await runWithFailover([only], deps(breakers, { t: 5 }), async () => 'stream', { verdictAtEnd: true });
      expect(breaker.state(5)).toBe('closed');
      result.settle('broken');
    }
    expect(breaker.state(5)).toBe('open');
  });

  it('with the verdict at the end, a half-open probe decides when its stream ends; a client leaving gives the probe back', async () => {
    const breakers = new BreakerRegistry({ failureThreshold: 1, cooldownMs: 100 });
    const only = target('gpt-4o');
    const breaker = breakers.get(only.breakerKey);
    breaker.onFailure(0, ticket(breaker, 0));
    const left = await runWithFailover([only], deps(breakers, { t: 100 }), async () => 'stream', { verdictAtEnd: true });
    expect(breaker.tryAcquire(100)).toBeUndefined(); // the probe's stream is still running
    left.settle('abandoned');
    const probe = await runWithFailover([only], deps(breakers, { t: 100 }), async () => 'stream', { verdictAtEnd: true });
    probe.settle('complete');
    expect(breaker.state(100)).toBe('closed');
  });
});

describe('retry delay sanity (property)', () => {
  it('is a finite, non-negative number within max(maxDelayMs, Retry-After) <= 5 s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.option(fc.double({ min: 0, max: 10_000, noNaN: true }), { nil: undefined }),
        fc.double({ min: 0, max: 0.9999999, noNaN: true }),
        (attempt, retryAfter, r) => {
          const delay = retryDelayMs(DEFAULT_RETRY_POLICY, attempt, retryAfter, () => r);
          if (retryAfter !== undefined && retryAfter > 5_000) return delay === undefined;
          return delay !== undefined && Number.isFinite(delay) && delay >= 0 && delay <= 5_000 && delay >= (retryAfter ?? 0);
        },
      ),
    );
  });
});
