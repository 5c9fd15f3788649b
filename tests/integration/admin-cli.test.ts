// @databases: both — the command behaves differently on each database (PostgreSQL while the server runs).
/**
 * `npm run admin -- grant | revoke | list` (decision 093), run as its own process exactly as an operator
 * runs it, on the database of the tier under test: on PostgreSQL while the server runs; on the
 * embedded database only while no server holds DATA_DIR, which the command says plainly.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { PROJECT_ROOT } from '#server/paths.ts';
import { type RunningServer, startServer } from '#server/start.ts';
import { locationOf, waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type AuthTestServer, startAuthServer, testDatabase } from '#tests/support/test-server.ts';

const PASSWORD = 'correct horse battery';
const SUPPORT = 'support@cli.test';
const MEMBER = 'member@cli.test';
const embedded = testDatabase() === 'pglite';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let server: AuthTestServer;
/** The server serving now: the first one, or the one started again on the same DATA_DIR. */
let running: RunningServer | undefined;
let env: Record<string, string>;

function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/admin.ts', ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * Commands as an operator runs them: on the embedded database with the server stopped (then started
 * again on the same DATA_DIR), on PostgreSQL while it runs.
 */
async function operator(...commands: string[][]): Promise<Run[]> {
  const runAll = async () => {
    const runs: Run[] = [];
    for (const args of commands) runs.push(await admin(...args));
    return runs;
  };
  if (!embedded) return runAll();
  await running?.close();
  running = undefined;
  try {
    return await runAll();
  } finally {
    running = await startServer(loadConfig(env), { logger: false, webDir: process.env.HIGHGRADE_WEB_DIR });
  }
}

async function rolesOf(email: string): Promise<string[]> {
  const db = (running ?? server.server).ctx.db;
  const { rows } = await db.query<{ role: string }>(
    'select r.role from public.user_roles r join auth.users u on u.id = r.user_id where lower(u.email) = $1',
    [email],
  );
  return rows.map((row) => row.role);
}

beforeAll(async () => {
  server = await startAuthServer({ SUPPORT_EMAIL: SUPPORT });
  running = server.server;
  const config = server.server.ctx.config;
  env = {
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl ?? '',
    SUPPORT_EMAIL: SUPPORT,
    SITE_URL: server.siteUrl,
    PORT: String(new URL(server.url).port),
    HOST: '127.0.0.1',
    JWT_SECRET: server.jwtSecret,
    RATE_LIMIT_EMAIL_PER_CLIENT: '1000',
    RATE_LIMIT_EMAIL_PER_RECIPIENT: '1000',
    SMTP_MAX_FREQUENCY: '0',
  };
  for (const email of [MEMBER, SUPPORT]) {
    const { error } = await adminClient(server).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    if (error) throw error;
  }
});
afterAll(async () => {
  if (running && running !== server.server) await running.close();
  await server?.close();
});

describe('npm run admin', () => {
  it.runIf(embedded)(
    'says plainly that the server must be stopped while it holds the embedded database',
    async () => {
      const run = await admin('list');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `The embedded database in DATA_DIR ${env.DATA_DIR} is in use by a running HighGrade server (pid ${process.pid})`,
      );
      expect(run.stderr).toContain('stop the server');
      expect(run.stdout).toBe('');
    },
  );

  it('grants the role to an account by address, once, and lists the administrators', async () => {
    const [granted, again, missing, listed] = (await operator(
      ['grant', 'Member@CLI.test'],
      ['grant', MEMBER],
      ['grant', 'nobody@cli.test'],
      ['list'],
    )) as [Run, Run, Run, Run];
    expect(granted).toMatchObject({ code: 0, stdout: 'Member@CLI.test is now an administrator.\n' });
    expect(again).toMatchObject({ code: 0, stdout: `${MEMBER} was already an administrator.\n` });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('There is no account with the address nobody@cli.test');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${MEMBER}\\s+[0-9a-f-]{36}\\s+\\d{4}-`, 'm'));
    expect(listed.stdout.split('\n').filter((line) => line.includes('@'))).toHaveLength(1);
    expect(await rolesOf(MEMBER)).toEqual(['admin']);
    // The role works at once: the account's requests are an admin's.
    const client = clientFor({ url: (running as RunningServer).url, anonKey: server.anonKey });
    expect((await client.auth.signInWithPassword({ email: MEMBER, password: PASSWORD })).error).toBeNull();
    expect((await client.rpc('has_role', { _role: 'admin' })).data).toBe(true);
  }, 240_000);

  it('refuses nonsense with its usage', async () => {
    for (const args of [[], ['grant'], ['grant', 'not-an-address'], ['promote', MEMBER], ['list', 'extra']]) {
      const run = await admin(...args);
      expect(run.code, args.join(' ')).toBe(64);
      expect(run.stderr).toMatch(/Usage: npm run admin|is not an email address/);
    }
  }, 120_000);

  it('revokes the role, and a revoked support address is not made admin again by a mailed link', async () => {
    const [revoked] = (await operator(['revoke', SUPPORT])) as [Run];
    expect(revoked).toMatchObject({
      code: 0,
      stdout: `${SUPPORT} was not an administrator (the mail rule will not make it one).\n`,
    });
    const url = (running as RunningServer).url;
    const reset = await clientFor({ url, anonKey: server.anonKey }).auth.resetPasswordForEmail(SUPPORT);
    expect(reset.error).toBeNull();
    const mail = await waitForMail(env.DATA_DIR as string, (m) => m.to === SUPPORT && m.type === 'recovery');
    expect((await locationOf(mail.action_url as string)).location).toContain('access_token=');
    expect(await rolesOf(SUPPORT)).toEqual([]);

    const [taken, listed] = (await operator(['revoke', MEMBER], ['list'])) as [Run, Run];
    expect(taken).toMatchObject({ code: 0, stdout: `${MEMBER} is no longer an administrator.\n` });
    expect(listed.stdout).toBe('No administrators.\n');
    expect(await rolesOf(MEMBER)).toEqual([]);
  }, 240_000);
});
