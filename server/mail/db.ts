import type { Queryable } from '../db/driver.ts';

/** Every SQL statement of the mailer: the erased addresses every process's outbox follows (decision 173). */

/** How long erased addresses are kept for processes that were down: a week. */
const KEEP = "interval '7 days'";

/** Records the hashes of erased addresses; the others hear of it at commit (NOTIFY mail_erased). */
export async function insertErasedHashes(tx: Queryable, hashes: string[]): Promise<void> {
  await tx.query(
    `with recorded as (
       insert into auth.erased_mail (address_hash) select unnest($1::text[])
       on conflict (address_hash) do update set erased_at = now()
       returning 1)
     select pg_notify('mail_erased', ''), (select count(*) from recorded)`,
    [hashes],
  );
}

export async function forgetOldErasures(db: Queryable): Promise<void> {
  await db.query(`delete from auth.erased_mail where erased_at < now() - ${KEEP}`);
}

export async function erasedHashes(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ address_hash: string }>('select address_hash from auth.erased_mail');
  return rows.map((row) => row.address_hash);
}
