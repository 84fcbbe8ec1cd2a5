import { ConfigError, type Env, parseEnv } from './config/env.ts';
import { buildApp } from './app.ts';
import { settlesWithin } from './lib/deadline.ts';
import { closeGracefully } from './modules/health/readiness.ts';

/** Entry point: parse config, build the app, listen, and shut down gracefully. */
async function main(): Promise<void> {
  let env: Env;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // A database that stopped under the server (the embedded one's thread died) ends the process
  // with an error, so that its supervisor starts it again.
  let onFatal: (() => void) | undefined;
  let failedWhileStarting = false;
  const app = await buildApp({
    env,
    onFatal: () => {
      if (onFatal) onFatal();
      else failedWhileStarting = true;
    },
  });
  // Usage already recorded is written even when the stop is forced; a database that does not answer gets 2 s.
  const flushUsage = () =>
    settlesWithin(app.gateway.meter.flush(), 2_000).catch((error: unknown) => {
      app.log.error({ err: error }, 'could not write the buffered usage before exiting');
    });
  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(async () => {
      app.log.error({ graceMs: env.SHUTDOWN_GRACE_MS }, 'shutdown grace period over: exiting with requests still open');
      await flushUsage();
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS);
    try {
      // Only a stop signal drains: after a fatal error, nothing is served any more.
      await closeGracefully(app, exitCode === 0 ? env.SHUTDOWN_DRAIN_MS : 0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      await flushUsage();
      exitCode = 1;
    }
    clearTimeout(timer);
    process.exit(exitCode);
  };
  onFatal = () => void shutdown('database stopped', 1);
  if (failedWhileStarting) return onFatal();
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: env.PORT, host: env.HOST });
}

main().catch((error: unknown) => {
  process.stderr.write(`Conductor failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
