#!/usr/bin/env node
// `npm test`: every tier, in order, each on the Node.js lines it is tested on (decision 163), each
// reported with its time; then the suite's test and assertion counts and its slowest files. Fails when
// any tier fails.
//
//   npm test                  every tier (PostgreSQL too when TEST_PG_URL is set)
//   npm test -- unit browser  only the tiers whose name contains one of the words
//   npm test -- --node=current   every chosen tier once, on the Node.js that runs npm (no download)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { delimiter, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { filesToRunAgain } from './crashed-files.mjs';
import { envFor, nodeFor } from './node-lines.mjs';
import { PROJECT_ROOT } from './server-build.mjs';

/** The line every tier runs on, and the supported floor, which runs the tiers that prove it. */
const CURRENT = 24;
const FLOOR = 20;

/** The most of a tier's output kept for its summary: its last lines are what says why it failed. */
const TAIL_BYTES = 16 * 1024;
const TAIL_LINES = 40;

const postgres = Boolean(process.env.TEST_PG_URL);
const tiers = [
  {
    name: 'typecheck',
    lines: [CURRENT],
    command: 'tsc -p tsconfig.json && tsc -p web/tsconfig.json && tsc -p tests/e2e/tsconfig.json',
  },
  { name: 'lint', lines: [CURRENT], command: 'biome check .' },
  { name: 'unit', lines: [CURRENT, FLOOR], command: 'vitest run --project unit' },
  { name: 'start-up smoke', lines: [CURRENT, FLOOR], command: 'vitest run --project smoke' },
  { name: 'integration (PGlite)', lines: [CURRENT], command: 'vitest run --project integration:pglite' },
  ...(postgres
    ? [
        {
          name: 'integration (PostgreSQL)',
          lines: [CURRENT],
          command: 'vitest run --project integration:postgres',
        },
      ]
    : []),
  { name: 'browser', lines: [CURRENT], command: 'playwright test' },
];

/**
 * Vitest's main process opens PGlite too (the integration tiers' global setup builds the template
 * databases), so V8's code-page tracking can abort it as it can a worker ("Check failed:
 * jit_page.has_value()", nodejs/node#64500): it does on Node 22 and later, where the flag that turns
 * the tracking off exists. NODE_OPTIONS refuses V8 flags, so the runner is started as `node <flag>
 * vitest.mjs` (decision 259; the workers take the flag from vitest.config.ts, decision 245).
 */
function withoutMemoryProtectionKeys(command, version) {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (!(major >= 22) || !command.startsWith('vitest ')) return command;
  const runner = join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs');
  return `node --no-memory-protection-keys ${JSON.stringify(runner)} ${command.slice('vitest '.length)}`;
}

const args = process.argv.slice(2);
const currentOnly = args.includes('--node=current');
const words = args.filter((word) => !word.startsWith('--'));
const chosen = tiers.filter(({ name }) => words.length === 0 || words.some((word) => name.includes(word)));

// Counts and per-file times of this run (tests/support/count-assertions.ts, tests/e2e/support/count-reporter.ts).
const countDir = join(PROJECT_ROOT, '.test-results');
rmSync(countDir, { recursive: true, force: true });
mkdirSync(countDir, { recursive: true });

const hostAtStart = hostCheck();
const scratch = scratchFolder();
const results = [];
for (const tier of chosen) {
  const lines = currentOnly ? ['current'] : tier.lines;
  for (const line of lines) {
    // The project's tools first, as `npm test` puts them (also when this script is run directly).
    let env = {
      ...process.env,
      PATH: `${join(PROJECT_ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
      HG_COUNT_DIR: join(countDir, `${slug(tier.name)}-${line}`),
      ...(scratch ? { TMPDIR: scratch } : {}),
    };
    if (line !== 'current') {
      let binary;
      try {
        binary = await nodeFor(line);
      } catch (error) {
        process.stdout.write(
          `\n=== ${tier.name} on Node ${line}: cannot get Node ${line}: ${error.message}\n`,
        );
        results.push({ name: tier.name, line, ok: false, seconds: 0 });
        continue;
      }
      env = { ...envFor(binary, env), HG_NODE_LINE: String(line) };
    }
    mkdirSync(env.HG_COUNT_DIR, { recursive: true });
    const version = spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
    const command = withoutMemoryProtectionKeys(tier.command, version);
    process.stdout.write(`\n=== ${tier.name} on Node ${version}: ${command}\n`);
    const started = Date.now();
    const run = await runPassingThrough(command, env);
    // How the tier's own process ended, for a summary whose tier failed before any test did.
    const ended = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.status}`;
    let { status } = run;
    if (status !== 0 && command.includes('vitest')) status = runCrashedFilesAgain(command, env) ?? status;
    results.push({
      name: tier.name,
      line: version,
      ok: status === 0,
      seconds: Math.round((Date.now() - started) / 1000),
      dir: env.HG_COUNT_DIR,
      ended,
      tail: run.tail,
    });
  }
}

if (scratch) rmSync(scratch, { recursive: true, force: true });
process.stdout.write('\n=== summary\n');
let total = 0;
const rows = [];
for (const { name, line, ok, seconds, dir } of results) {
  total += seconds;
  const counted = dir ? readLines(dir, '.jsonl') : [];
  for (const row of counted) rows.push({ ...row, tier: name, line });
  const tests = counted.reduce((sum, row) => sum + row.tests, 0);
  const assertions = counted.reduce((sum, row) => sum + row.assertions, 0);
  const counts = counted.length > 0 ? `, ${tests} tests, ${assertions} assertions` : '';
  process.stdout.write(`${ok ? 'pass' : 'FAIL'}  ${name} on Node ${line} (${seconds} s${counts})\n`);
}
const allTests = rows.reduce((sum, row) => sum + row.tests, 0);
const allAssertions = rows.reduce((sum, row) => sum + row.assertions, 0);
process.stdout.write(`total ${total} s; ${allTests} tests and ${allAssertions} assertions counted\n`);
const hostAtEnd = hostCheck();
process.stdout.write(
  `host: 256 MiB hashed in ${hostAtStart.ms} ms at the start (load ${hostAtStart.load}), ${hostAtEnd.ms} ms at the end (load ${hostAtEnd.load})\n`,
);
if (!process.env.TEST_PG_URL) {
  process.stdout.write(
    'note: TEST_PG_URL is not set, so the PostgreSQL tier did not run (.ci/run sets it)\n',
  );
}
if (rows.length > 0) {
  spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/slowest-tests.mjs'), countDir], {
    stdio: 'inherit',
  });
}
// Last, so the tail of a CI log names them: what failed, and what passed only on a retry.
// `.retried`: a step outside the tests that crashed and passed when started again (the PGlite template
// build, decision 268), listed as flaky.
const failures = results.flatMap(({ name, line, dir }) =>
  (dir ? [...readLines(dir, '.failures'), ...readLines(dir, '.retried')] : []).map((failure) => ({
    ...failure,
    tier: name,
    line,
  })),
);
if (failures.length > 0) {
  process.stdout.write(`\n=== what failed, and what passed only on a retry (${failures.length})\n`);
  for (const { tier, line, outcome, file, name, errors } of failures) {
    process.stdout.write(
      `${outcome === 'flaky' ? 'flaky' : 'FAIL '} ${tier} on Node ${line} › ${file} › ${name}\n`,
    );
    for (const error of errors) process.stdout.write(`${indent(error)}\n`);
  }
}
for (const { name, line, ok, dir, ended, tail } of results) {
  if (
    !ok &&
    !failures.some(
      (failure) => failure.tier === name && failure.line === line && failure.outcome !== 'flaky',
    ) &&
    dir
  )
    process.stdout.write(
      `\n${name} on Node ${line} failed with no failing test recorded: its process ${ended}. The last lines it printed:\n${indent(tail)}\n`,
    );
}
process.exit(results.every((result) => result.ok) ? 0 : 1);

/**
 * Runs a tier's command with its output passed through as it comes, and keeps the last TAIL_LINES lines
 * of it (without colours): a CI log keeps only its own tail, so a tier that fails before any test has
 * failed shows its reason in the summary. Resolves to its exit status or signal and those lines.
 */
function runPassingThrough(command, env) {
  return new Promise((resolve, reject) => {
    // Piped output is no terminal: colours stay on where this script's own output is one.
    const colours = process.stdout.isTTY && !env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
    const child = spawn(command, {
      stdio: ['inherit', 'pipe', 'pipe'],
      shell: true,
      env: { ...colours, ...env },
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let kept = '';
    const keep = (chunk, stream) => {
      stream.write(chunk);
      kept = (kept + chunk).slice(-TAIL_BYTES);
    };
    child.stdout.on('data', (chunk) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk) => keep(chunk, process.stderr));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      const lines = stripVTControlCharacters(kept).trimEnd().split('\n').slice(-TAIL_LINES);
      resolve({ status, signal, tail: lines.join('\n') });
    });
  });
}

/**
 * A Vitest test process can die under a file for no fault of the file: V8 aborts a process that opens
 * and closes many PGlite WebAssembly instances, now and then, with or without memory protection keys
 * ("Check failed: jit_page.has_value()" and its kin, nodejs/node#64500). When that is the only failure
 * of a tier (crashed-files.mjs says when), the files that did not finish run once more, alone, and the
 * tier's result is theirs. The summary lists
 * each as "flaky" with the first run's errors, so a crash is never silent (decision 264). Returns the
 * second run's exit status, or undefined when the failures are of another kind.
 */
function runCrashedFilesAgain(command, env) {
  const dir = env.HG_COUNT_DIR;
  const failures = readLines(dir, '.failures');
  const unfinished = filesToRunAgain(failures);
  if (unfinished.length === 0) return undefined;
  // The first run's record is kept aside: the second run writes its own failures and counts.
  for (const name of readdirSync(dir).filter((name) => name.endsWith('.failures')))
    renameSync(join(dir, name), join(dir, `${name}.first-run`));
  for (const name of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
    const kept = readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => line && !unfinished.some((file) => JSON.parse(line).file.endsWith(file)));
    writeFileSync(join(dir, name), kept.map((line) => `${line}\n`).join(''));
  }
  process.stdout.write(
    `\n=== a test process died under ${unfinished.length} file(s); running them once more: ${unfinished.join(' ')}\n`,
  );
  const { status } = spawnSync(`${command} ${unfinished.join(' ')}`, { stdio: 'inherit', shell: true, env });
  const died = failures.filter((failure) => !failure.unfinished).flatMap((failure) => failure.errors);
  const lines = unfinished.map((file) =>
    JSON.stringify({
      runner: 'vitest',
      outcome: status === 0 ? 'flaky' : 'failed',
      file,
      name: `its test process died under it (decision 264); run once more, it ${status === 0 ? 'passed' : 'failed'}`,
      errors: died,
    }),
  );
  writeFileSync(join(dir, 'crashed-files.failures'), `${lines.join('\n')}\n`);
  return status;
}

/**
 * The tests' temporary folders (every data directory and PGlite copy a test makes, browser profiles)
 * go to a folder on /dev/shm, a tmpfs, where it has room: the PGlite tier spends less time in its file
 * system there (decision 264). Removed when the run ends; undefined where there is no such tmpfs.
 */
function scratchFolder() {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < 4 * 1024 ** 3) return undefined;
    return mkdtempSync('/dev/shm/highgrade-tests-');
  } catch {
    return undefined;
  }
}

/**
 * How fast this machine is just now: one core hashing 256 MiB, with the load average beside it. Printed
 * at both ends of the summary, so a slow run can be told from a slow host (a quiet machine of CI's
 * kind takes about 190 ms on Node 20; see docs/testing.md).
 */
function hostCheck() {
  const block = Buffer.alloc(1 << 20, 7);
  const started = performance.now();
  for (let i = 0; i < 256; i++) createHash('sha256').update(block).digest();
  return { ms: Math.round(performance.now() - started), load: loadavg()[0].toFixed(2) };
}

function slug(name) {
  return name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '')
    .toLowerCase();
}

/**
 * The JSON lines of one tier run's files ending in `extension`: the counters' per-file counts (.jsonl) or failures
 * (.failures, tests/support/failure-reporter.ts, tests/e2e/support/count-reporter.ts).
 */
function readLines(dir, extension) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(extension))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line));
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}
