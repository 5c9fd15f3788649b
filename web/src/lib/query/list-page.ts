/**
 * Up to how many rows the data API counts exactly for `count: 'estimated'` (PostgREST's rule: up to
 * PGRST_DB_MAX_ROWS, 1000 by default; above it, PostgreSQL's estimate of the statement). The admin lists
 * ask for such counts: counting every member, booking or audit row for each page grew with the data
 * where the page did not (issue 40 part 4, decision 252), so a larger total is shown as "about N".
 */
export const COUNTED_EXACTLY = 1000;

/**
 * One page of an admin list from the data API's answer to a `range` read with `count: 'estimated'`: its
 * rows, the total, and whether that total is an estimate (above COUNTED_EXACTLY). A page past the list's
 * end — an old link, a typed `?page=`, an estimate that was high — is answered 416 (PostgREST's
 * PGRST103, "Requested range not satisfiable"): that is an empty page, which the list shows as such, not
 * a failure to load.
 */
export function listPage<Row>(
  answer: { data: unknown[] | null; error: { code?: string } | null; count: number | null },
  parse: (row: Record<string, unknown>) => Row,
): { rows: Row[]; total: number; approximate: boolean } {
  if (answer.error?.code === 'PGRST103') return { rows: [], total: 0, approximate: false };
  if (answer.error) throw answer.error;
  const total = answer.count ?? 0;
  return {
    rows: (answer.data ?? []).map((row) => parse(row as Record<string, unknown>)),
    total,
    approximate: total > COUNTED_EXACTLY,
  };
}
