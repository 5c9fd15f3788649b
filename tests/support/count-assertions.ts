import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, expect } from 'vitest';

/**
 * Counts the assertions each test file makes (`expect(…)` calls, as Vitest counts them for
 * `expect.assertions`), so `npm test` can print the suite's total next to its time (issue 38: a
 * faster suite must not prove less). Active only when HG_COUNT_DIR names a folder; one JSON line per
 * file is appended to a file per worker there.
 */
const directory = process.env.HG_COUNT_DIR;
if (directory) {
  // Set up before the file's own imports run, so the time includes its set-up and hooks.
  const started = performance.now();
  let tests = 0;
  let assertions = 0;
  afterEach(() => {
    tests += 1;
    assertions += expect.getState().assertionCalls;
  });
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    const ms = Math.round(performance.now() - started);
    const project = process.env.HG_PROJECT ?? '';
    const line = JSON.stringify({ runner: 'vitest', project, file, tests, assertions, ms });
    appendFileSync(`${directory}/vitest-${process.pid}.jsonl`, `${line}\n`);
  });
}
