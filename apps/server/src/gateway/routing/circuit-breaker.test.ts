import { describe, expect, it } from 'vitest';
import { BreakerRegistry, CircuitBreaker } from './circuit-breaker.ts';

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, not before', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1_000 });
    breaker.onFailure(0);
    breaker.onFailure(0);
    breaker.onSuccess();
    breaker.onFailure(0);
    breaker.onFailure(0);
    expect(breaker.state(0)).toBe('closed');
    breaker.onFailure(10);
    expect(breaker.state(10)).toBe('open');
    expect(breaker.tryAcquire(500)).toBeUndefined();
    expect(breaker.retryInMs(500)).toBe(510);
  });

  it('lets exactly one probe through when half-open; its outcome closes or re-opens', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 100 });
    breaker.onFailure(0);
    expect(breaker.state(100)).toBe('half-open');
    const probe = breaker.tryAcquire(100);
    expect(probe).toEqual({ generation: 1, probe: true });
    expect(breaker.tryAcquire(100)).toBeUndefined();
    breaker.onFailure(150, probe);
    expect(breaker.state(200)).toBe('open');
    const second = breaker.tryAcquire(250);
    expect(second?.probe).toBe(true);
    breaker.onSuccess(second);
    expect(breaker.state(250)).toBe('closed');
    expect(breaker.tryAcquire(250)).toEqual({ generation: 2, probe: false });
  });

  it('gives the probe slot back when an attempt ends without a verdict', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 10 });
    breaker.onFailure(0);
    const probe = breaker.tryAcquire(10);
    expect(probe?.probe).toBe(true);
    breaker.release(probe);
    expect(breaker.tryAcquire(10)?.probe).toBe(true);
  });

  it('keeps one breaker per upstream key', () => {
    const registry = new BreakerRegistry({ failureThreshold: 1, cooldownMs: 1_000 });
    registry.get('openai https://a').onFailure(0);
    expect(registry.isHealthy('openai https://a', 1)).toBe(false);
    expect(registry.isHealthy('openai https://b', 1)).toBe(true);
  });
});
