import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';
import { failureLine } from './failure-line.ts';

/**
 * Writes what failed in a Vitest run — a test, a hook (a `beforeAll` that failed leaves its tests
 * unrun), a file that would not load, an error outside any test — to HG_COUNT_DIR, so `npm test` can
 * name them last, where a CI log's tail shows them, and can run once more a file whose test process
 * died under it (decision 264). Active only when HG_COUNT_DIR names a folder.
 */
export default class FailureReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const directory = process.env.HG_COUNT_DIR;
    if (!directory) return;
    const lines: string[] = [];
    const add = (
      file: string,
      name: string,
      errors: ReadonlyArray<SerializedError> | undefined,
      unfinished?: true,
    ) => {
      lines.push(
        failureLine({ runner: 'vitest', outcome: 'failed', file, name, errors: errors ?? [], unfinished }),
      );
    };
    for (const module of modules) {
      const file = relative(process.cwd(), module.moduleId);
      const project = module.project.name;
      // Queued or still running when the run ended: its test process died under it (decision 264).
      const state = module.state();
      if (state === 'queued' || state === 'pending') {
        const message = 'Its test process ended before the file did: see the error outside any test.';
        add(file, `${project}: the file did not finish`, [{ message }], true);
      }
      if (module.errors().length > 0) add(file, `${project}: the file`, module.errors());
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) add(file, `${project}: ${suite.fullName} (a hook)`, suite.errors());
      }
      for (const test of module.children.allTests('failed')) {
        add(file, `${project}: ${test.fullName}`, test.result().errors);
      }
    }
    for (const error of unhandledErrors) add('', 'an error outside any test', [error]);
    if (lines.length > 0)
      appendFileSync(`${directory}/vitest-${process.pid}.failures`, `${lines.join('\n')}\n`);
  }
}
