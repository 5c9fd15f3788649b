/**
 * One failure as `npm test` prints it at the end of its summary (scripts/test.mjs): where, which test,
 * and the first lines of each error, without colour codes.
 */
export interface Failure {
  runner: 'vitest' | 'playwright';
  /** failed: the run fails for it; flaky: failed, then passed on a retry. */
  outcome: 'failed' | 'flaky';
  file: string;
  name: string;
  errors: ReadonlyArray<{ message?: string; stack?: string }>;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The message's first lines and the first frames of the stack in our own code. */
function shown({ message, stack }: { message?: string; stack?: string }): string {
  const clean = (text: string | undefined) =>
    (text ?? '')
      .replace(ANSI, '')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const frames = clean(stack)
    .filter((line) => /^\s*at /.test(line) && !/node_modules|node:internal|<anonymous>/.test(line))
    .slice(0, 4);
  return [...clean(message ?? 'no message').slice(0, 10), ...frames].join('\n');
}

export function failureLine({ errors, ...failure }: Failure): string {
  return JSON.stringify({ ...failure, errors: errors.slice(0, 3).map(shown) });
}
