/**
 * One page of an admin list from the data API's answer (a `range` read with a count). A page past the
 * list's end — an old link, a typed `?page=`, an estimated total that was high (decision 252) — is
 * answered 416 (PostgREST's PGRST103, "Requested range not satisfiable"): that is an empty page, which
 * the list shows as such, not a failure to load.
 */
export function listPage<Row>(
  answer: { data: unknown[] | null; error: { code?: string } | null; count: number | null },
  parse: (row: Record<string, unknown>) => Row,
): { rows: Row[]; total: number } {
  if (answer.error?.code === 'PGRST103') return { rows: [], total: 0 };
  if (answer.error) throw answer.error;
  return {
    rows: (answer.data ?? []).map((row) => parse(row as Record<string, unknown>)),
    total: answer.count ?? 0,
  };
}
