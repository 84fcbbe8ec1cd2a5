import { describe, expect, it } from 'vitest';
import { BreakerRegistry, CircuitBreaker } from './circuit-breaker.ts';

/** The ticket a request gets now (the test fails if the breaker refuses it). */
const ticket = (breaker: CircuitBreaker, now: number) => breaker.tryAcquire(now) ?? expect.unreachable(`no ticket at ${now}`);
const fail = (breaker: CircuitBreaker, now: number) => breaker.onFailure(now, ticket(breaker, now));

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, not before', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1_000 });
    fail(breaker, 0);
    fail(breaker, 0);
    breaker.onSuccess(ticket(breaker, 0));
    fail(breaker, 0);
    fail(breaker, 0);
    expect(breaker.state(0)).toBe('closed');
    fail(breaker, 10);
    expect(breaker.state(10)).toBe('open');
    expect(breaker.tryAcquire(500)).toBeUndefined();
    expect(breaker.retryInMs(500)).toBe(510);
  });

  it('lets exactly one probe through when half-open; its outcome closes or re-opens', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 100 });
    fail(breaker, 0);
    expect(breaker.state(100)).toBe('half-open');
    const probe = ticket(breaker, 100);
    expect(probe).toEqual({ generation: 1, probe: true });
    expect(breaker.tryAcquire(100)).toBeUndefined();
    breaker.onFailure(150, probe);
    expect(breaker.state(200)).toBe('open');
    const second = ticket(breaker, 250);
    expect(second.probe).toBe(true);
    breaker.onSuccess(second);
    expect(breaker.state(250)).toBe('closed');
    expect(breaker.tryAcquire(250)).toEqual({ generation: 2, probe: false });
  });

  it('gives the probe slot back when an attempt ends without a verdict', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 10 });
    fail(breaker, 0);
    const probe = ticket(breaker, 10);
    expect(probe.probe).toBe(true);
    breaker.release(probe);
    expect(breaker.tryAcquire(10)?.probe).toBe(true);
  });

  it('keeps one breaker per upstream key', () => {
    const registry = new BreakerRegistry({ failureThreshold: 1, cooldownMs: 1_000 });
    fail(registry.get('openai https://a'), 0);
    expect(registry.isHealthy('openai https://a', 1)).toBe(false);
    expect(registry.isHealthy('openai https://b', 1)).toBe(true);
  });
});
