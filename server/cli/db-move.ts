import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import type { Database } from '../db/driver.ts';
import { MoveError, moveDatabase, redact, storedObjectVersions } from '../db/move.ts';
import { OperatorError } from '../operator-error.ts';
import { openDatabase } from '../start.ts';

/**
 * `npm run db:move -- postgres://… [--files-to-s3]` (decision 218): copies the embedded install in
 * DATA_DIR into an empty PostgreSQL database — every schema, sequences, accounts and sessions, storage
 * metadata — and, with --files-to-s3, the stored files into the S3 bucket the STORAGE_S3_* settings
 * name. Without it the files stay in DATA_DIR/storage, where the server on PostgreSQL finds them.
 */

const USAGE = `Usage: npm run db:move -- postgres://USER@HOST/DATABASE [--files-to-s3]

  The embedded database in DATA_DIR (the server stopped) is copied into the empty PostgreSQL database.
  --files-to-s3   also copy the stored files to the bucket of STORAGE_S3_BUCKET (STORAGE_S3_* settings)
`;

class UsageError extends OperatorError {}

async function main(argv: string[]): Promise<number> {
  const toS3 = argv.includes('--files-to-s3');
  const urls = argv.filter((arg) => arg !== '--files-to-s3');
  const url = urls[0];
  if (urls.length !== 1 || !url || !/^postgres(ql)?:\/\//.test(url)) throw new UsageError(USAGE.trimEnd());

  const config = loadConfig({ ...process.env, DATABASE_URL: '', STORAGE_BACKEND: toS3 ? 's3' : 'file' });
  if (!existsSync(join(config.dataDir, 'db', 'PG_VERSION'))) {
    throw new OperatorError(`There is no embedded database in DATA_DIR ${config.dataDir} to move.`);
  }
  let lock: Awaited<ReturnType<typeof lockDataDir>>;
  try {
    lock = await lockDataDir(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new OperatorError(
      `The embedded database in DATA_DIR ${config.dataDir} is in use by a running server: stop it, then move.`,
    );
  }
  const say = (message: string) => process.stdout.write(`${message}\n`);
  let source: Database | undefined;
  try {
    source = await openDatabase(config, { warn: () => {}, error: () => {} });
    const result = await moveDatabase({
      source,
      targetUrl: url,
      openTarget: (targetUrl) => openDatabase({ ...config, databaseUrl: targetUrl, dbPoolMax: 2 }, quiet),
      progress: say,
    });
    const copySeconds = result.copyMs / 1000;
    say(
      `moved ${result.rows} rows in ${result.tables.length} tables and ${result.sequences} sequences ` +
        `in ${(result.ms / 1000).toFixed(1)} s (copy ${copySeconds.toFixed(1)} s, ` +
        `${Math.round(result.rows / Math.max(copySeconds, 0.001))} rows/s); ` +
        'every table holds as many rows as the embedded database.',
    );
    if (toS3) {
      const files = await copyFilesToS3(config, source, say);
      say(`copied ${files} stored files to the bucket ${config.storage.s3.bucket}.`);
    }
    say('');
    say('To run on PostgreSQL from now on, start the server with:');
    say(`  DATABASE_URL=${redact(url)}`);
    say(
      toS3
        ? `  STORAGE_BACKEND=s3 (and the same STORAGE_S3_* settings)`
        : `  DATA_DIR=${config.dataDir} (the keys and the stored files stay there)`,
    );
    say(
      `The embedded database in ${join(config.dataDir, 'db')} is left as it was: keep it until the new install is proven, then remove it.`,
    );
    return 0;
  } finally {
    await source?.close();
    await lock.release();
  }
}

const quiet = { warn: () => {}, error: () => {} };

/** Every blob under DATA_DIR/storage/objects, written to the bucket under the same key. */
async function copyFilesToS3(
  config: ReturnType<typeof loadConfig>,
  source: Database,
  say: (message: string) => void,
): Promise<number> {
  const { FileBackend } = await import('../storage/backends/file.ts');
  const { S3Backend } = await import('../storage/backends/s3.ts');
  const files = await FileBackend.open(join(config.dataDir, 'storage'));
  const bucket = await S3Backend.open(config.storage.s3, (message, error) =>
    process.stderr.write(`${message}: ${String(error)}\n`),
  );
  const rows = await storedObjectVersions(source);
  const info = new Map(rows.map((row) => [row.version, row]));
  const objects = join(config.dataDir, 'storage', 'objects');
  let count = 0;
  try {
    const prefixes = existsSync(objects) ? await readdir(objects) : [];
    for (const prefix of prefixes) {
      for (const key of await readdir(join(objects, prefix))) {
        const known = info.get(key);
        const write = await bucket.startWrite(key, {
          contentType: known?.type ?? 'application/octet-stream',
          cacheControl: known?.cache ?? 'no-cache',
        });
        try {
          await pipeline(await files.read(key), write.stream);
          await write.commit();
        } catch (error) {
          await write.abort();
          throw new MoveError(`copying the stored file ${key} to S3 failed: ${(error as Error).message}`);
        }
        count += 1;
        if (count % 1000 === 0) say(`${count} files copied`);
      }
    }
  } finally {
    await files.close();
    await bucket.close();
  }
  return count;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof UsageError
      ? error.message
      : `highgrade: ${error instanceof OperatorError || error instanceof ConfigError ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = error instanceof UsageError ? 64 : 2;
}
