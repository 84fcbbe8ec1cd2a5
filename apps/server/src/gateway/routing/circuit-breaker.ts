export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one probe is let through. */
  cooldownMs: number;
}

/**
 * A circuit breaker for one upstream: closed until `failureThreshold` consecutive failures,
 * then open (requests skip it) for `cooldownMs`, then half-open: exactly one probe goes
 * through; its success closes the circuit, its failure opens it again for another cooldown.
 */
export class CircuitBreaker {
  readonly #options: BreakerOptions;
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;

  constructor(options: BreakerOptions) {
    this.#options = options;
  }

  state(now: number): BreakerState {
    if (this.#openedAt === undefined) return 'closed';
    return now - this.#openedAt >= this.#options.cooldownMs ? 'half-open' : 'open';
  }

  /** Milliseconds until an open circuit lets a probe through (0 when not open). */
  retryInMs(now: number): number {
    if (this.#openedAt === undefined) return 0;
    return Math.max(0, this.#openedAt + this.#options.cooldownMs - now);
  }

  /** Whether a request may go to this upstream now; in half-open, only the first caller gets the probe. */
  tryAcquire(now: number): boolean {
    const state = this.state(now);
    if (state === 'closed') return true;
    if (state === 'open' || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  /** The upstream answered (any status it is responsible for not counting as failure). */
  onSuccess(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  onFailure(now: number): void {
    this.#failures += 1;
    if (this.#probing || this.#failures >= this.#options.failureThreshold) this.#openedAt = now;
    this.#probing = false;
  }

  /** The attempt ended without a verdict (the client went away): a probe slot is given back. */
  release(): void {
    this.#probing = false;
  }
}

/** One breaker per upstream (provider + base URL), created on first use. */
export class BreakerRegistry {
  readonly #options: BreakerOptions;
  readonly #breakers = new Map<string, CircuitBreaker>();

  constructor(options: BreakerOptions) {
    this.#options = options;
  }

  get(key: string): CircuitBreaker {
    let breaker = this.#breakers.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(this.#options);
      this.#breakers.set(key, breaker);
    }
    return breaker;
  }

  /** Every upstream's breaker state (for the metrics). */
  states(now: number): [string, BreakerState][] {
    return [...this.#breakers].map(([key, breaker]) => [key, breaker.state(now)]);
  }

  /** Healthy unless its circuit is open (half-open counts as healthy: the next request probes it). */
  isHealthy(key: string, now: number): boolean {
    return this.#breakers.get(key)?.state(now) !== 'open';
  }
}
