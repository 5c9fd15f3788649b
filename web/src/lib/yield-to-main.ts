/**
 * Lets the browser handle input and paint before the caller goes on: start-up work is cut into tasks
 * this way, so no single one blocks the page for long (Total Blocking Time, decision 157).
 */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
