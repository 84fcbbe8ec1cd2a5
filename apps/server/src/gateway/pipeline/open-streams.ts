import { GatewayError } from '../gateway-error.ts';
import { sseError } from './responses.ts';

/**
 * The gateway's answers that could keep a stopping server open: streams being forwarded, and
 * sandbox answers waiting out their simulated latency. A shutdown ends each of them at once (a
 * stream with an explicit error event) instead of leaving it to be cut, unannounced, by the exit.
 */
export class OpenStreams {
  readonly #stops = new Set<() => void>();
  #shuttingDown = false;

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  get size(): number {
    return this.#stops.size;
  }

  /** Registers how to end one answer; once the shutdown has begun, ends it at once. Returns the unregistration. */
  track(stop: () => void): () => void {
    if (this.#shuttingDown) {
      stop();
      return () => undefined;
    }
    this.#stops.add(stop);
    return () => this.#stops.delete(stop);
  }

  /** Ends every answer registered, and any registered later. */
  endForShutdown(): void {
    this.#shuttingDown = true;
    const stops = [...this.#stops];
    this.#stops.clear();
    for (const stop of stops) stop();
  }
}

export const SHUTDOWN_ERROR_CODE = 'server_shutting_down';

/** Thrown into a stream's pump when the server stops under it. */
export class ServerShutdownError extends Error {
  constructor() {
    super('the server is shutting down');
    this.name = 'ServerShutdownError';
  }
}

/** The end of a stream cut by a shutdown: the SDKs raise `APIError` on it, and no `[DONE]` follows. */
export const sseShutdownError = (): string =>
  sseError('The server is restarting; the answer above is incomplete. Retry the request.', 'api_error', SHUTDOWN_ERROR_CODE);

/** A request stopped by a shutdown before any byte of its answer: a plain 503, which the SDKs retry. */
export const shutdownRefusal = (): GatewayError =>
  new GatewayError(503, 'api_error', SHUTDOWN_ERROR_CODE, 'The server is restarting. Retry the request.');
