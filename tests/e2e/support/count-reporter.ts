import { appendFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/**
 * Counts the assertions of the browser tests (`expect` steps, web-first ones included) and each
 * spec file's time, for `npm test`'s summary (issue 38). Active only when HG_COUNT_DIR names a
 * folder. A retried test counts its last attempt only.
 */
function expectSteps(steps: TestStep[]): number {
  let count = 0;
  for (const step of steps) {
    if (step.category === 'expect') count += 1;
    count += expectSteps(step.steps);
  }
  return count;
}

export default class CountReporter implements Reporter {
  private readonly perTest = new Map<string, { file: string; assertions: number; ms: number }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const earlier = this.perTest.get(test.id);
    this.perTest.set(test.id, {
      file: test.location.file,
      assertions: expectSteps(result.steps),
      ms: (earlier?.ms ?? 0) + result.duration,
    });
  }

  onEnd(_result: FullResult): void {
    const directory = process.env.HG_COUNT_DIR;
    if (!directory) return;
    const files = new Map<string, { tests: number; assertions: number; ms: number }>();
    for (const { file, assertions, ms } of this.perTest.values()) {
      const entry = files.get(file) ?? { tests: 0, assertions: 0, ms: 0 };
      entry.tests += 1;
      entry.assertions += assertions;
      entry.ms += ms;
      files.set(file, entry);
    }
    const lines = [...files].map(([file, entry]) => JSON.stringify({ runner: 'playwright', file, ...entry }));
    appendFileSync(`${directory}/playwright-${process.pid}.jsonl`, `${lines.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
