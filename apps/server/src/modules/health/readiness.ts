import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance should get new requests (`GET /readyz`): not once its shutdown has begun. */
    readiness: Readiness;
  }
}

export class Readiness {
  #shuttingDown = false;

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  beginShutdown(): void {
    this.#shuttingDown = true;
  }
}

/**
 * A stop (SIGTERM, SIGINT): readiness fails first, so a load balancer probing `GET /readyz`
 * stops sending new requests during `drainMs` while this instance still serves them; then the
 * app closes (its `preClose` ends the gateway's streams, each with an explicit error event;
 * requests in flight finish; the usage buffer is written).
 */
export async function closeGracefully(app: FastifyInstance, drainMs: number): Promise<void> {
  app.readiness.beginShutdown();
  if (drainMs > 0) {
    app.log.info({ drainMs }, 'not ready: draining before the listener closes');
    await sleep(drainMs);
  }
  await app.close();
}
