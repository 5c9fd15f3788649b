import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type {
  FullResult,
  Reporter,
  TestCase,
  TestError,
  TestResult,
  TestStep,
} from '@playwright/test/reporter';
import { failureLine } from '../../support/failure-line.ts';

/**
 * Counts the assertions of the browser tests (`expect` steps, web-first ones included) and each
 * spec file's time, for `npm test`'s summary (issue 38). Active only when HG_COUNT_DIR names a
 * folder. A retried test counts its last attempt only. It also writes what failed, and what passed
 * only on a retry, with the failing attempt's errors, so `npm test` can name them last, where a CI
 * log's tail shows them.
 */

/** The annotation naming the page's address when a test failed (fixtures.ts adds it). */
export const PAGE_AT_FAILURE = 'page at the failure';

/**
 * Where a failed attempt's page was: its address (fixtures.ts) and the first lines of Playwright's
 * accessibility snapshot of it (the "error-context" attachment), shown with the attempt's errors.
 */
function pageAtFailure(result: TestResult): TestError | null {
  const address = result.annotations.find((annotation) => annotation.type === PAGE_AT_FAILURE)?.description;
  const context = result.attachments.find((attachment) => attachment.name === 'error-context')?.path;
  let snapshot: string[] = [];
  if (context) {
    try {
      const text = readFileSync(context, 'utf8');
      // The first snapshot: under the error that took one, else under "# Page snapshot".
      snapshot = (/```yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? '').split('\n');
    } catch {
      // The attachment went with its folder: the address alone says something.
    }
  }
  // The page's main part says more than its header and navigation, which come first.
  const main = snapshot.findIndex((line) => /^\s*- main\b/.test(line));
  snapshot = snapshot.slice(Math.max(0, main)).filter((line) => line.trim() !== '');
  if (!address && snapshot.length === 0) return null;
  return {
    message: [`the page at the failure: ${address ?? 'unknown'}`, ...snapshot.slice(0, 9)].join('\n'),
  };
}

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
  /** The errors of each test's last failing attempt. */
  private readonly failedAttempt = new Map<string, { test: TestCase; errors: TestError[] }>();
  private readonly outsideTests: TestError[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const earlier = this.perTest.get(test.id);
    this.perTest.set(test.id, {
      file: test.location.file,
      assertions: expectSteps(result.steps),
      ms: (earlier?.ms ?? 0) + result.duration,
    });
    if (result.status !== 'passed' && result.status !== 'skipped') {
      // The page comes second: the summary shows a failure's first three errors.
      const page = pageAtFailure(result);
      const [first, ...rest] = result.errors;
      this.failedAttempt.set(test.id, {
        test,
        errors: [...(first ? [first] : []), ...(page ? [page] : []), ...rest],
      });
    }
  }

  onError(error: TestError): void {
    this.outsideTests.push(error);
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

    const failures: string[] = [];
    for (const { test, errors } of this.failedAttempt.values()) {
      const outcome = test.outcome();
      if (outcome !== 'unexpected' && outcome !== 'flaky') continue;
      failures.push(
        failureLine({
          runner: 'playwright',
          outcome: outcome === 'flaky' ? 'flaky' : 'failed',
          file: relative(process.cwd(), test.location.file),
          // titlePath: the root, the project and the file, then the describe blocks and the title.
          name: `[${test.parent.project()?.name ?? ''}] ${test.titlePath().slice(3).join(' › ')} (line ${test.location.line})`,
          errors,
        }),
      );
    }
    for (const error of this.outsideTests) {
      failures.push(
        failureLine({
          runner: 'playwright',
          outcome: 'failed',
          file: '',
          name: 'an error outside any test',
          errors: [error],
        }),
      );
    }
    if (failures.length > 0)
      appendFileSync(`${directory}/playwright-${process.pid}.failures`, `${failures.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
