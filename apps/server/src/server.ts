import { ConfigError, type Env, parseEnv } from './config/env.ts';
import { buildApp } from './app.ts';

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
  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(exitCode);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
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
