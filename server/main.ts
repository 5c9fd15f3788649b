import { loadConfig, redact } from './config.ts';
import { KEYS_FILE } from './keys.ts';
import { OperatorError } from './operator-error.ts';
import { type RunningServer, startServer } from './start.ts';

function fail(error: unknown): never {
  if (error instanceof OperatorError) {
    process.stderr.write(`highgrade: ${error.message}\n`);
  } else {
    process.stderr.write(
      `highgrade: unexpected failure during start-up\n${(error as Error)?.stack ?? error}\n`,
    );
  }
  process.exit(1);
}

async function main(): Promise<void> {
  let server: RunningServer;
  try {
    const config = loadConfig();
    server = await startServer(config, { logger: true, buildWeb: true });
    const { ctx, url } = server;
    const database = config.databaseUrl
      ? redact(config.databaseUrl)
      : `embedded PGlite in ${config.dataDir}/db`;
    process.stdout.write(`\nHighGrade is running at ${url}  (database: ${database})\n`);
    if (ctx.keys.generated && !config.jwtSecret) {
      process.stdout.write(
        `API keys were generated into ${config.dataDir}/${KEYS_FILE}; show them with: npm run keys\n`,
      );
    }
    process.stdout.write('\n');
  } catch (error) {
    fail(error);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`highgrade: ${signal} again, exiting immediately\n`);
      process.exit(1);
    }
    stopping = true;
    server.ctx.log.info(`${signal} received: finishing requests and closing the database`);
    const force = setTimeout(() => {
      process.stderr.write('highgrade: shutdown took longer than 10 s, exiting\n');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`highgrade: shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
