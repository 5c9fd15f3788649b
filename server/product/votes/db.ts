import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/** Every SQL statement of Pass or Gas's server-side work (decisions 116, 156), as the connecting role. */

/** Writes the Pass or Gas settings where the database's vote triggers read them (decision 116). */
export async function setVoteSettings(
  tx: Queryable,
  settings: { minAccountAgeHours: number; ringDetection: boolean },
): Promise<void> {
  await tx.query(
    `update private.votes_settings
     set min_account_age = make_interval(hours => $1::integer), ring_detection = $2::boolean, updated_at = now()
     where id and (min_account_age, ring_detection) is distinct from (make_interval(hours => $1::integer), $2::boolean)`,
    [settings.minAccountAgeHours, settings.ringDetection],
  );
}

/** Pending votes whose accounts are now old enough start counting; old ring signals go (decision 116). */
export async function voteHousekeeping(tx: Queryable): Promise<number> {
  const row = await one<{ promoted: number }>(tx, 'select private.votes_housekeeping() as promoted', []);
  return row?.promoted ?? 0;
}

/** Broadcasts the tallies changed since the last run on the topic `product-tallies` (decision 156). */
export async function broadcastTallies(tx: Queryable): Promise<number> {
  const row = await one<{ sent: number }>(tx, 'select private.votes_broadcast_tallies() as sent', []);
  return row?.sent ?? 0;
}
