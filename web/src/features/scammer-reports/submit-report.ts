import {
  firstProblem,
  type ReportField,
  type ReportRow,
  type ReportValues,
  reportProblems,
  toReportRow,
} from './report.ts';

/**
 * One press of Submit Report (product §report-dialog), as a sequence of checks with the world
 * passed in, so the order and every outcome are unit-tested: signed in → security token → the
 * fields → the browser's rate limit → the server's rate limit → the insert. The fields come before
 * the limits so a typo does not use up an attempt.
 */
export type SubmitOutcome =
  | { kind: 'signed-out' }
  | { kind: 'token-missing' }
  | { kind: 'invalid'; problems: Partial<Record<ReportField, string>>; message: string }
  | { kind: 'rate-limited'; by: 'browser' | 'server' }
  | { kind: 'rejected'; error: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'submitted' };

export interface SubmitDependencies {
  userId: string | null;
  csrfToken: string | null;
  now: Date;
  /** The browser's log (records the attempt when allowed). */
  clientAllows: () => boolean;
  /**
   * global_rate_limit_check; resolves true when the check itself failed (§report-dialog: the action
   * proceeds).
   */
  serverAllows: () => Promise<boolean>;
  /** The insert; resolves the error supabase-js returned, or null. */
  insert: (row: ReportRow) => Promise<unknown | null>;
}

export async function submitReport(values: ReportValues, deps: SubmitDependencies): Promise<SubmitOutcome> {
  if (!deps.userId) return { kind: 'signed-out' };
  if (!deps.csrfToken) return { kind: 'token-missing' };
  const problems = reportProblems(values, deps.now);
  const message = firstProblem(problems);
  if (message) return { kind: 'invalid', problems, message };
  if (!deps.clientAllows()) return { kind: 'rate-limited', by: 'browser' };
  try {
    if (!(await deps.serverAllows())) return { kind: 'rate-limited', by: 'server' };
    const error = await deps.insert(toReportRow(values, deps.userId, deps.now));
    if (!error) return { kind: 'submitted' };
    // The insert trigger's own limit (HTTP 429) reads as the same refusal.
    if (isRateLimitError(error)) return { kind: 'rate-limited', by: 'server' };
    return { kind: 'rejected', error };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

function isRateLimitError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = 'code' in error ? error.code : undefined;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  return code === 'PT429' || /rate.?limit/i.test(message);
}
