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
  errors: ReadonlyArray<ShownError>;
  /**
   * The file's test process ended before the file did (a Vitest worker that died): `npm test` runs
   * such files once more (scripts/test.mjs, decision 264).
   */
  unfinished?: true;
}

interface ShownError {
  message?: string;
  stack?: string;
  /** What the error was caused by: Vitest's "Worker … emitted error" says why only here. */
  cause?: unknown;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The message's first lines, the first frames of the stack in our own code, and its causes' messages. */
function shown({ message, stack, cause }: ShownError): string {
  const clean = (text: string | undefined) =>
    (text ?? '')
      .replace(ANSI, '')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const frames = clean(stack)
    .filter((line) => /^\s*at /.test(line) && !/node_modules|node:internal|<anonymous>/.test(line))
    .slice(0, 4);
  const causes: string[] = [];
  for (let next = cause, depth = 0; next && typeof next === 'object' && depth < 3; depth++) {
    const { message: causeMessage, cause: deeper } = next as ShownError;
    causes.push(`caused by: ${clean(causeMessage ?? 'no message')[0] ?? 'no message'}`);
    next = deeper;
  }
  return [...clean(message ?? 'no message').slice(0, 10), ...frames, ...causes].join('\n');
}

export function failureLine({ errors, ...failure }: Failure): string {
  return JSON.stringify({ ...failure, errors: errors.slice(0, 3).map(shown) });
}
