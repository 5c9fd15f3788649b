import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, readMigrations } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { PROJECT_ROOT } from '#server/web-build.ts';
import { PGLITE_PROCESS_FLAGS } from './pglite-process-flags.ts';

/**
 * Migrated databases made once per set of migrations and copied for each test server (decision 164):
 * applying every migration and definition takes seconds, a copy takes milliseconds.
 */

/** A hash of everything a migrated database is made from: the migration files and `extra`. */
async function migrationsHash(extra: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(extra);
  for (const file of await readMigrations()) hash.update(`${file.layer}/${file.name}:${file.checksum}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** A freshly initialised and fully migrated PGlite cluster (its `db` folder), copied per server. */
export async function pgliteTemplate(): Promise<string> {
  const pglite = JSON.parse(
    await readFile(join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  const cacheDir = join(PROJECT_ROOT, 'node_modules/.cache/highgrade');
  const template = join(cacheDir, `pglite-${await migrationsHash(pglite.version)}`);
  try {
    await stat(join(template, 'db', 'PG_VERSION'));
    return join(template, 'db');
  } catch {
    // build it below
  }
  const scratch = `${template}.tmp-${process.pid}`;
  await buildPgliteIn(scratch);
  await rm(template, { recursive: true, force: true });
  await rename(scratch, template);
  return join(template, 'db');
}

/** How many times a template build whose process crashed is started in all. */
const BUILD_ATTEMPTS = 3;

/**
 * Migrates a new PGlite cluster in `scratch` in a child process (tests/support/pglite-template-build.ts),
 * so that the process asking — Vitest's main process, Playwright's — never opens PGlite. A child that
 * crashed (V8's code-page CHECK under PGlite, nodejs/node#64500) is started again from an empty
 * folder, at most BUILD_ATTEMPTS times in all, and each such death is printed; a child that exits with
 * an error (a migration that fails) fails the build at once, with its output (decision 268).
 */
async function buildPgliteIn(scratch: string): Promise<void> {
  const script = join(PROJECT_ROOT, 'tests/support/pglite-template-build.ts');
  for (let attempt = 1; ; attempt++) {
    await rm(scratch, { recursive: true, force: true });
    await mkdir(scratch, { recursive: true });
    const child = spawn(process.execPath, [...PGLITE_PROCESS_FLAGS, '--import', 'tsx', script, scratch], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (code === 0) return;
    await rm(scratch, { recursive: true, force: true });
    // V8 aborts with a signal; a fatal error it reports may also end the process with an exit code.
    const crashed = signal !== null || /Check failed|Fatal error in/.test(output);
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (!crashed || attempt >= BUILD_ATTEMPTS)
      throw new Error(`building the PGlite template: the process ${how} (attempt ${attempt})\n${output}`);
    process.stdout.write(
      `building the PGlite template: the process ${how}; starting it again (attempt ${attempt + 1} of ${BUILD_ATTEMPTS})\n${output}\n`,
    );
    await recordRetry(`its process ${how} (attempt ${attempt}); started again`, output);
  }
}

/**
 * Under `npm test`, a crashed build that was started again is listed in the run's summary as flaky,
 * beside the files whose test process died (decision 264), so it is never silent: the tier's
 * `.retried` lines (scripts/test.mjs), with the crash's last lines.
 */
async function recordRetry(name: string, output: string): Promise<void> {
  const dir = process.env.HG_COUNT_DIR;
  if (!dir) return;
  const record = {
    outcome: 'flaky',
    file: 'tests/support/pglite-template-build.ts',
    name: `the PGlite template build: ${name} (decision 268)`,
    errors: [output.trim() ? output.trimEnd().split('\n').slice(-10).join('\n') : '(it printed nothing)'],
  };
  await mkdir(dir, { recursive: true });
  await appendFile(join(dir, 'template-build.retried'), `${JSON.stringify(record)}\n`);
}

/** Several checkouts (and CI) may share one PostgreSQL server: each keeps templates of its own. */
const CHECKOUT = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8);
const TEMPLATE_PREFIX = `hg_tpl_${CHECKOUT}_`;

/**
 * The name of a migrated database on the TEST_PG_URL server that `create database … template …`
 * copies for each test (tests/support/databases.ts). Made when missing, under an advisory lock so
 * concurrent runs make it once; this checkout's templates of older migrations are dropped.
 */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${await migrationsHash('postgres')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('highgrade test templates'))`);
    const existing = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`${TEMPLATE_PREFIX}%`],
    );
    for (const { datname } of existing.rows) {
      if (datname !== name) await admin.query(`drop database if exists ${datname} with (force)`);
    }
    if (existing.rows.some((row) => row.datname === name)) return name;

    const scratch = `hg_tpl_tmp_${process.pid}`;
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.query(`create database ${scratch}`);
    const url = new URL(adminUrl);
    url.pathname = `/${scratch}`;
    const db = await openPostgres({ url: url.toString(), poolMax: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // Renamed only once complete, so a half-migrated template is never copied.
    await admin.query(`alter database ${scratch} rename to ${name}`);
    return name;
  } finally {
    await admin.end();
  }
}
