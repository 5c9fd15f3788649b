import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';
import { OperatorError } from '../operator-error.ts';
import { checkSize, importCloses, parseCloses } from '../product/market/closes-import.ts';
import { openDatabase } from '../start.ts';

/**
 * `npm run market:import -- FILE [--check]`: imports daily closes from a CSV file (columns
 * ticker,date,close,source[,currency]) into the equity index, all rows or none (decision 128), on the
 * server's database (same DATA_DIR / DATABASE_URL). --check only reports what the import would do.
 */

const USAGE = `Usage: npm run market:import -- FILE [--check]

  FILE      a CSV file with the columns ticker,date,close,source (currency optional, USD)
  --check   check every row and report, write nothing
`;

class UsageError extends OperatorError {}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const files = argv.filter((arg) => arg !== '--check');
  if (files.length !== 1 || files[0]?.startsWith('-')) throw new UsageError(USAGE.trimEnd());
  const file = files[0] as string;
  const size = await stat(file).then(
    (info) => info.size,
    () => {
      throw new OperatorError(`cannot read ${file}`);
    },
  );
  checkSize(size);
  const rows = parseCloses(await readFile(file, 'utf8'));

  const config = loadConfig();
  let lock: Awaited<ReturnType<typeof lockDataDir>> | undefined;
  if (!config.databaseUrl) {
    if (!existsSync(join(config.dataDir, 'db', 'PG_VERSION'))) {
      throw new OperatorError(
        `There is no database in DATA_DIR ${config.dataDir} yet: start the server once (npm start).`,
      );
    }
    try {
      lock = await lockDataDir(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      throw new OperatorError(
        `The embedded database in DATA_DIR ${config.dataDir} is in use by a running server: stop it, import, start it again (with DATABASE_URL the import works while servers run), or use the admin page.`,
      );
    }
  }
  const db = await openDatabase(config, { warn: () => {}, error: () => {} });
  try {
    await migrate(db);
    const result = await db.transaction((tx) => importCloses(tx, rows, !check));
    if (!result.ok) {
      for (const error of result.errors) {
        process.stderr.write(`line ${error.line}, ${error.column}: ${error.message}\n`);
      }
      if (result.error_count > result.errors.length) {
        process.stderr.write(`… ${result.error_count - result.errors.length} more\n`);
      }
      process.stderr.write(
        `${result.error_count} problem(s) in ${result.rows} rows: nothing was imported.\n`,
      );
      return 1;
    }
    process.stdout.write(
      `${result.rows} rows ${check ? 'checked' : 'imported'}: ${result.new} new, ${result.revised} corrected (new revision), ${result.unchanged} unchanged` +
        `${result.samples_removed ? `; the demonstration series was removed` : ''}.\n`,
    );
    return 0;
  } finally {
    await db.close();
    await lock?.release();
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
  process.exitCode = error instanceof UsageError ? 64 : 2;
}
