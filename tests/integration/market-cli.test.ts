/**
 * `npm run market:import -- FILE [--check]` (decision 128), run as its own process as an operator runs
 * it, on a fresh database of the tier under test: a file with bad rows is refused line by line and
 * nothing is written; a good one is imported once (a second run finds every row unchanged); malformed
 * CSV and a missing file are refused with one clear line.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#server/paths.ts';
import { freshDatabase } from '#tests/support/databases.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let env: Record<string, string>;
let drop: () => Promise<void>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'highgrade-market-cli-'));
  const database = await freshDatabase(dir);
  drop = database.drop;
  env = { DATA_DIR: dir, DATABASE_URL: database.url ?? '', DEMO_CONTENT: 'false' };
});
afterAll(async () => {
  await drop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/market-import.ts', ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('npm run market:import', () => {
  it('refuses a file with bad rows, line by line, then imports a good one once', async () => {
    const bad = await file(
      'bad.csv',
      'ticker,date,close,source\nTLRY,2025-01-02,1.50,broker\nNOPE,2025-01-02,1,broker\nCGC,2025-01-02,-1,broker\n',
    );
    const refused = await run(bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'line 3, ticker: unknown ticker "NOPE" (not in the equity universe)\n' +
        'line 4, close: negative price -1\n' +
        '2 problem(s) in 3 rows: nothing was imported.\n',
    );

    const good = await file(
      'good.csv',
      'ticker,date,close,source\nTLRY,2025-01-02,1.50,broker\nCGC,2025-01-02,3,broker\n',
    );
    const checked = await run(good, '--check');
    expect(checked).toMatchObject({
      code: 0,
      stdout: '2 rows checked: 2 new, 0 corrected (new revision), 0 unchanged.\n',
    });
    const imported = await run(good);
    expect(imported).toMatchObject({
      code: 0,
      stdout: '2 rows imported: 2 new, 0 corrected (new revision), 0 unchanged.\n',
    });
    const again = await run(good, '--check');
    expect(again.stdout).toBe('2 rows checked: 0 new, 0 corrected (new revision), 2 unchanged.\n');
  }, 240_000);

  it('refuses malformed CSV, a wrong header and a missing file with one line', async () => {
    const malformed = await run(
      await file('malformed.csv', 'ticker,date,close,source\nTLRY,"2025-01-02,1\n'),
    );
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^highgrade: the file is not valid CSV: /);
    const header = await run(await file('header.csv', 'ticker,day,close\nTLRY,2025-01-02,1\n'));
    expect(header.stderr).toBe(
      'highgrade: the header must name the columns ticker, date, close and source (currency is optional); missing: date, source\n',
    );
    const missing = await run(join(dir, 'nothing-here.csv'));
    expect(missing).toMatchObject({
      code: 2,
      stderr: `highgrade: cannot read ${join(dir, 'nothing-here.csv')}\n`,
    });
    const usage = await run();
    expect(usage.code).toBe(64);
    expect(usage.stderr).toContain('Usage: npm run market:import -- FILE [--check]');
  }, 120_000);
});
