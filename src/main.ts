#!/usr/bin/env node
/**
 * ck-apiserver entry point: flags and environment -> settings -> server. SIGTERM and SIGINT
 * drain and stop. Exit codes: 0 after a clean stop, 1 when start-up fails, 2 for bad flags.
 */
import { ConfigError, HelpRequested, loadConfig } from './config/load-config.js';
import { startServer } from './server.js';
import { installCheaperAsyncResourceBind } from './runtime/async-resource-bind.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(err.usage + '\n');
      process.exit(0);
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`ck-apiserver: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // Every etcd call binds an AsyncResource (Node's HTTP/2 client): the same behaviour, cheaper.
  installCheaperAsyncResourceBind();
  const running = await startServer(config);
  // Last line of defence: a stray rejection is logged, never allowed to end the process.
  process.on('unhandledRejection', (reason) => running.deps.logger.error({ err: reason }, 'unhandled rejection'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.deps.logger.info({ signal }, 'stopping');
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`ck-apiserver: failed to start: ${(err instanceof Error ? err.stack : undefined) ?? err}\n`);
  process.exit(1);
});
