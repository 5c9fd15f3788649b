import type { Database } from './driver.ts';

/**
 * Sample content (decision 105, product §samples). Each product area that can show samples defines
 * `private.<area>_samples(load boolean)` in its SQL definitions: `true` inserts the area's labelled
 * sample rows when it has no real rows and no samples yet, `false` deletes them. The server finds
 * every such function in the catalogue, so an area adds samples without touching this file.
 *
 * Several server processes may start at once on one database: they take turns (one transaction under
 * one advisory lock), so the second finds the first one's samples and adds none.
 */
export async function applySamples(db: Database, load: boolean): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext('highgrade: sample content'))");
    const { rows } = await tx.query<{ fn: string }>(
      `select format('%I.%I', n.nspname, p.proname) as fn
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'private' and p.proname like '%\\_samples'
        and pg_get_function_identity_arguments(p.oid) = 'load boolean'
      order by p.proname`,
    );
    for (const { fn } of rows) await tx.query(`select ${fn}($1)`, [load]);
    return rows.map((row) => row.fn);
  });
}
