export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one probe is let through. */
  cooldownMs: number;
}

/**
 * What `tryAcquire` hands out: the circuit's generation when the request was let through (it
 * grows each time the circuit opens) and whether it is the half-open probe. A verdict from an
 * earlier generation (a request already in flight when the circuit opened) changes nothing:
 * only requests let through since, and in half-open only the probe, decide.
 */
export interface BreakerTicket {
  readonly generation: number;
  readonly probe: boolean;
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
  #generation = 0;

  constructor(options: BreakerOptions) {
    this.#options = options;
  }

  /** Time since the circuit opened; a clock stepped back restarts the cooldown rather than lengthening it. */
  #openFor(now: number): number {
    if (this.#openedAt === undefined) return 0;
    if (now < this.#openedAt) this.#openedAt = now;
    return now - this.#openedAt;
  }

  state(now: number): BreakerState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#openFor(now) >= this.#options.cooldownMs ? 'half-open' : 'open';
  }

  /** Milliseconds until an open circuit lets a probe through (0 when not open). */
  retryInMs(now: number): number {
    if (this.#openedAt === undefined) return 0;
    return Math.max(0, this.#options.cooldownMs - this.#openFor(now));
  }

  /** A ticket when a request may go to this upstream now; in half-open, only the first caller gets one (the probe). */
  tryAcquire(now: number): BreakerTicket | undefined {
    const state = this.state(now);
    if (state === 'closed') return { generation: this.#generation, probe: false };
    if (state === 'open' || this.#probing) return undefined;
    this.#probing = true;
    return { generation: this.#generation, probe: true };
  }

  /** The upstream answered (any status it is responsible for not counting as failure). */
  onSuccess(ticket: BreakerTicket): void {
    if (ticket.generation !== this.#generation) return;
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  onFailure(now: number, ticket: BreakerTicket): void {
    if (ticket.generation !== this.#generation) return;
    const probe = ticket.probe;
    this.#failures += 1;
    if (probe || (this.#openedAt === undefined && this.#failures >= this.#options.failureThreshold)) {
      this.#openedAt = now;
      this.#generation += 1;
    }
    if (probe) this.#probing = false;
  }

  /** The attempt ended without a verdict (the client went away): the probe's slot is given back. */
  release(ticket: BreakerTicket): void {
    if (!ticket.probe || ticket.generation !== this.#generation) return;
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
