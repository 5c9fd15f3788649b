#!/usr/bin/env node
// `npm test`: every tier, in order, each reported; fails when any tier fails.
// Set TEST_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to add the PostgreSQL tier.
import { spawnSync } from 'node:child_process';

const tiers = [
  ['typecheck', 'tsc -p tsconfig.json && tsc -p web/tsconfig.json && tsc -p tests/e2e/tsconfig.json'],
  ['lint', 'biome check .'],
  ['unit and integration', 'vitest run'],
  ['browser', 'playwright test'],
];

const only = process.argv.slice(2);
const results = [];
for (const [name, command] of tiers) {
  if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
  process.stdout.write(`\n=== ${name}: ${command}\n`);
  const started = Date.now();
  const { status } = spawnSync(command, { stdio: 'inherit', shell: true });
  results.push({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

process.stdout.write('\n=== summary\n');
for (const { name, ok, seconds } of results)
  process.stdout.write(`${ok ? 'pass' : 'FAIL'}  ${name} (${seconds} s)\n`);
if (!process.env.TEST_PG_URL) {
  process.stdout.write(
    'note: TEST_PG_URL is not set, so the PostgreSQL tier did not run (.ci/run sets it)\n',
  );
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
