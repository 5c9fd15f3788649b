import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { extractArchive } from '../backup/archive.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { OperatorError } from '../operator-error.ts';

/**
 * `npm run restore -- <file>`: brings a backup made by `npm run backup` back into DATA_DIR, which must
 * be empty or not exist yet (decision 215). The archive is read into a directory beside DATA_DIR,
 * every file checked against the manifest, and only then renamed into place: a damaged or cut-off
 * backup leaves nothing behind, and an existing install is never overwritten.
 */

class UsageError extends OperatorError {}

const USAGE = `Usage: npm run restore -- <backup file>

Restores a backup made by npm run backup into DATA_DIR (environment; default ./data), which must be
empty or not exist. Then start the server as usual (npm start) with the same DATA_DIR.`;

async function entriesOf(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return ['(a file)'];
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.length !== 1 || argv[0]?.startsWith('-')) throw new UsageError(USAGE);
  const source = resolve(argv[0] as string);
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new OperatorError(
      'DATABASE_URL is set: npm run restore brings back an embedded install (DATA_DIR). Unset DATABASE_URL to restore one; ' +
        'a PostgreSQL database is restored with pg_restore (docs/deploy.md, "Backups").',
    );
  }
  if (!existsSync(source)) throw new OperatorError(`There is no backup file ${source}.`);
  const dataDir = config.dataDir;
  const present = await entriesOf(dataDir);
  if (present && present.length > 0) {
    throw new OperatorError(
      `DATA_DIR ${dataDir} is not empty (${present.length} ${present.length === 1 ? 'entry' : 'entries'}): ` +
        'restore only writes into an empty or new directory, so an install is never overwritten. ' +
        'Set DATA_DIR to a new directory, or move this one aside first.',
    );
  }

  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true });
  // Beside DATA_DIR, on the same file system: renamed into place in one step once complete.
  const scratch = join(parent, `.${basename(dataDir)}.restore-${randomBytes(4).toString('hex')}`);
  await mkdir(scratch, { mode: 0o700 });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const manifest = await extractArchive(source, scratch);
    if (present) await rmdir(dataDir);
    await rename(scratch, dataDir);
    const megabytes = (manifest.totalBytes / 1e6).toFixed(1);
    say(
      `Restored ${manifest.files.length} files (${megabytes} MB) into DATA_DIR ${dataDir}: the install as it was at ${manifest.snapshotPoint}, ` +
        `HighGrade ${manifest.product.version}, ${manifest.migrations.length} migrations.`,
    );
    say(`Start it with: DATA_DIR=${dataDir} npm start`);
    return 0;
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof UsageError
      ? error.message
      : `highgrade: ${error instanceof OperatorError || error instanceof ConfigError ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = error instanceof UsageError ? 64 : 1;
}
