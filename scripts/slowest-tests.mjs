#!/usr/bin/env node
// The 20 slowest test files of the last `npm test` (or of the run whose results folder is given),
// from the per-file lines the counters write (tests/support/count-assertions.ts,
// tests/e2e/support/count-reporter.ts) into `.test-results/<tier>-<line>/`.
//
//   node scripts/slowest-tests.mjs [results-folder] [how-many]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from './server-build.mjs';

const folder = process.argv[2] ?? join(PROJECT_ROOT, '.test-results');
const limit = Number(process.argv[3] ?? 20);

const rows = [];
for (const run of readdirSync(folder)) {
  const dir = join(folder, run);
  if (!statSync(dir).isDirectory()) continue;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)) {
      rows.push({ run, ...JSON.parse(line) });
    }
  }
}
if (rows.length === 0) {
  process.stdout.write(`no test results in ${folder}\n`);
  process.exit(0);
}
rows.sort((a, b) => b.ms - a.ms);
const total = rows.reduce((sum, row) => sum + row.ms, 0);
process.stdout.write(
  `\n=== the ${Math.min(limit, rows.length)} slowest test files (of ${rows.length}; time spent in files, summed over workers: ${Math.round(total / 1000)} s)\n`,
);
for (const row of rows.slice(0, limit)) {
  const file = relative(PROJECT_ROOT, row.file);
  const seconds = (row.ms / 1000).toFixed(1).padStart(7);
  process.stdout.write(`${seconds} s  ${row.run.padEnd(30)} ${file} (${row.tests} tests)\n`);
}
