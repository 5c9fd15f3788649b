import type { Queryable } from './driver.ts';

/**
 * Sample content (decision 105, product §samples). Each product area that can show samples defines
 * `private.<area>_samples(load boolean)` in its SQL definitions: `true` inserts the area's labelled
 * sample rows when it has no real rows and no samples yet, `false` deletes them. The server finds
 * every such function in the catalogue, so an area adds samples without touching this file.
 */
export async function applySamples(db: Queryable, load: boolean): Promise<string[]> {
  const { rows } = await db.query<{ fn: string }>(
    `select format('%I.%I', n.nspname, p.proname) as fn
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'private' and p.proname like '%\\_samples'
        and pg_get_function_identity_arguments(p.oid) = 'load boolean'
      order by p.proname`,
  );
  for (const { fn } of rows) await db.query(`select ${fn}($1)`, [load]);
  return rows.map((row) => row.fn);
}
