/**
 * Runs deferred work once the browser is idle after the first render (or after `timeoutMs` at the
 * latest). The first deferred work of a page load sets the `highgrade:deferred-load` performance
 * mark, which bench/bundle.ts uses to tell the first render's JavaScript from what loads after it.
 * Returns a function that cancels the work if it has not run yet.
 */
export const DEFERRED_LOAD_MARK = 'highgrade:deferred-load';
let marked = false;

export function whenIdle(work: () => void, timeoutMs = 1500): () => void {
  const run = () => {
    if (!marked) {
      marked = true;
      performance.mark?.(DEFERRED_LOAD_MARK);
    }
    work();
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}

/** `whenIdle` as a promise, for deferred work written with `await`. */
export function idle(timeoutMs?: number): Promise<void> {
  return new Promise((resolve) => {
    whenIdle(resolve, timeoutMs);
  });
}
