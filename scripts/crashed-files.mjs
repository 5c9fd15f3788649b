// Which files of a failed Vitest tier `npm test` runs once more (decision 264): the files whose test
// process died under them, when that is all that went wrong. Pure, so its rules have a unit test
// (crashed-files.test.ts); scripts/test.mjs does the running.

/** More files than this lost at once is not a process that died now and then: the tier fails. */
export const MOST_FILES_RUN_AGAIN = 5;

/**
 * The files to run once more, from the failures the tier recorded (tests/support/failure-reporter.ts),
 * or [] when none should be: every failure must be a file that did not finish or Vitest's error for a
 * process that exited unexpectedly, and there must be at least one such file and at most five.
 */
export function filesToRunAgain(failures) {
  const files = [...new Set(failures.filter((failure) => failure.unfinished).map(({ file }) => file))];
  const onlyDeadProcesses = failures.every(
    (failure) =>
      failure.unfinished ||
      (failure.file === '' && failure.errors.some((error) => error.includes('Worker exited unexpectedly'))),
  );
  return onlyDeadProcesses && files.length <= MOST_FILES_RUN_AGAIN ? files : [];
}
