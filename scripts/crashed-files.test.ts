import { describe, expect, it } from 'vitest';
import { failureLine } from '../tests/support/failure-line.ts';
import { filesToRunAgain, MOST_FILES_RUN_AGAIN } from './crashed-files.mjs';

/** A failure as the reporter records it and `npm test` reads it back. */
const recorded = (failure: Parameters<typeof failureLine>[0]) =>
  JSON.parse(failureLine(failure)) as { file: string; unfinished?: boolean; errors: string[] };

const died = recorded({
  runner: 'vitest',
  outcome: 'failed',
  file: '',
  name: 'an error outside any test',
  errors: [
    {
      message: '[vitest-pool]: Worker forks emitted error.',
      cause: { message: 'Worker exited unexpectedly' },
    },
  ],
});
const unfinished = (file: string) =>
  recorded({
    runner: 'vitest',
    outcome: 'failed',
    file,
    name: 'integration:pglite: the file did not finish',
    errors: [{ message: 'Its test process ended before the file did.' }],
    unfinished: true,
  });

describe('the files a failed tier runs once more (decision 264)', () => {
  it('prints the cause that says a process died', () => {
    expect(died.errors[0]).toContain('caused by: Worker exited unexpectedly');
  });

  it('runs again the files whose process died, each once', () => {
    expect(filesToRunAgain([died, unfinished('tests/a.test.ts'), unfinished('tests/a.test.ts')])).toEqual([
      'tests/a.test.ts',
    ]);
  });

  it('runs nothing again when a test failed as well', () => {
    const failed = recorded({
      runner: 'vitest',
      outcome: 'failed',
      file: 'tests/b.test.ts',
      name: 'integration:pglite: counts votes',
      errors: [{ message: 'expected 2 to be 3' }],
    });
    expect(filesToRunAgain([died, unfinished('tests/a.test.ts'), failed])).toEqual([]);
  });

  it('runs nothing again for an error outside any test that is not a dead process', () => {
    const other = recorded({
      runner: 'vitest',
      outcome: 'failed',
      file: '',
      name: 'an error outside any test',
      errors: [{ message: 'Unhandled rejection: connection refused' }],
    });
    expect(filesToRunAgain([other, unfinished('tests/a.test.ts')])).toEqual([]);
  });

  it('runs nothing again when no file was left unfinished', () => {
    expect(filesToRunAgain([died])).toEqual([]);
  });

  it(`runs nothing again when more than ${MOST_FILES_RUN_AGAIN} files were lost`, () => {
    const many = Array.from({ length: MOST_FILES_RUN_AGAIN + 1 }, (_, i) => unfinished(`tests/${i}.test.ts`));
    expect(filesToRunAgain([died, ...many])).toEqual([]);
    expect(filesToRunAgain([died, ...many.slice(1)])).toHaveLength(MOST_FILES_RUN_AGAIN);
  });
});
