import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AdminRow, grantAdminByEmail, listAdmins, revokeAdminByEmail } from '../auth/admin-bootstrap.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';
import { OperatorError } from '../operator-error.ts';
import { openDatabase } from '../start.ts';

/**
 * `npm run admin -- grant EMAIL | revoke EMAIL | list`: who is an administrator, decided by the
 * operator on the database itself (decision 093) — no mail, no SUPPORT_EMAIL rule. Works on either
 * database: on PostgreSQL while servers run; on the embedded one only while no server holds DATA_DIR
 * (PGlite allows one process), which it says plainly instead of waiting or corrupting anything.
 */

const USAGE = `Usage: npm run admin -- <command>

  grant EMAIL    make the account with this address an administrator
  revoke EMAIL   take the role away (the SUPPORT_EMAIL mail rule will not give it back)
  list           the administrators

The same DATA_DIR / DATABASE_URL as the server's applies (environment).
`;

class UsageError extends OperatorError {}

function parse(argv: string[]): { command: 'grant' | 'revoke'; email: string } | { command: 'list' } {
  const [command, email, extra] = argv;
  if (command === 'list' && email === undefined) return { command };
  if ((command === 'grant' || command === 'revoke') && email !== undefined && extra === undefined) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 320) {
      throw new UsageError(`"${email.slice(0, 80)}" is not an email address`);
    }
    return { command, email };
  }
  throw new UsageError(USAGE.trimEnd());
}

function table(rows: AdminRow[]): string {
  if (rows.length === 0) return 'No administrators.';
  const width = Math.max(5, ...rows.map((row) => (row.email ?? '').length));
  return [
    `${'email'.padEnd(width)}  user id                               admin since`,
    ...rows.map((row) => `${(row.email ?? '').padEnd(width)}  ${row.id}  ${row.granted_at}`),
  ].join('\n');
}

const MESSAGES = {
  granted: (email: string) => `${email} is now an administrator.`,
  already: (email: string) => `${email} was already an administrator.`,
  revoked: (email: string) => `${email} is no longer an administrator.`,
  'not-admin': (email: string) => `${email} was not an administrator (the mail rule will not make it one).`,
  'no-account': (email: string) =>
    `There is no account with the address ${email}: the person signs up first (or create the account with the admin API).`,
} as const;

async function main(argv: string[]): Promise<number> {
  const request = parse(argv);
  const config = loadConfig();
  let lock: Awaited<ReturnType<typeof lockDataDir>> | undefined;
  if (!config.databaseUrl) {
    if (!existsSync(join(config.dataDir, 'db', 'PG_VERSION'))) {
      throw new OperatorError(
        `There is no database in DATA_DIR ${config.dataDir} yet: start the server once (npm start), or set DATA_DIR / DATABASE_URL as the server has them.`,
      );
    }
    try {
      lock = await lockDataDir(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      const pid = /\(pid (\d+)\)/.exec(error.message)?.[1];
      throw new OperatorError(
        `The embedded database in DATA_DIR ${config.dataDir} is in use by a running HighGrade server${pid ? ` (pid ${pid})` : ''}. ` +
          `It can be opened by one process only: stop the server${pid ? ` (kill -TERM ${pid})` : ''}, run this command, then start the server again. ` +
          '(With DATABASE_URL, the command works while servers run.)',
      );
    }
  }
  const db = await openDatabase(config, { warn: () => {}, error: () => {} });
  try {
    await migrate(db);
    if (request.command === 'list') {
      process.stdout.write(`${table(await listAdmins(db))}\n`);
      return 0;
    }
    const change = await db.transaction((tx) =>
      request.command === 'grant'
        ? grantAdminByEmail(tx, request.email)
        : revokeAdminByEmail(tx, request.email),
    );
    process.stdout.write(`${MESSAGES[change](request.email)}\n`);
    return change === 'no-account' ? 1 : 0;
  } finally {
    await db.close();
    await lock?.release();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof UsageError && error.message.startsWith('Usage')
      ? error.message
      : `highgrade: ${error instanceof OperatorError || error instanceof ConfigError ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = error instanceof UsageError ? 64 : 2;
}
