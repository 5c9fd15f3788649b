import type { Queryable } from './driver.ts';

/**
 * Leases on scheduled work (decision 106): which process runs a job now, across every process on the
 * same database. Claiming is one statement, so two processes can never both win.
 */

/**
 * Claims the lease of job `name` for `holder` when no live lease is held and the last run started at
 * least `everyMs` ago (less 5%, so a timer firing a little early still finds its run due). The lease
 * lasts `ttlMs`; a holder that dies is replaced once it expires. `everyMs = 0` claims whenever no run is
 * in progress (work started by hand: "refresh now").
 */
export async function claimLease(
  db: Queryable,
  name: string,
  holder: string,
  everyMs: number,
  ttlMs: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `insert into jobs.leases as l (name, holder, started_at, expires_at)
     values ($1, $2, now(), now() + $4 * interval '1 millisecond')
     on conflict (name) do update
        set holder = excluded.holder, started_at = excluded.started_at,
            expires_at = excluded.expires_at, finished_at = null
      where (l.expires_at <= now() or l.finished_at is not null)
        and l.started_at <= now() - $3 * 0.95 * interval '1 millisecond'
     returning l.name`,
    [name, holder, everyMs, ttlMs],
  );
  return rows.length === 1;
}

/** Ends `holder`'s run of job `name` (nothing when the lease has since passed to another holder). */
export async function releaseLease(db: Queryable, name: string, holder: string): Promise<void> {
  await db.query(
    `update jobs.leases set finished_at = now(), expires_at = now()
      where name = $1 and holder = $2 and finished_at is null`,
    [name, holder],
  );
}

export interface LeaseState {
  holder: string;
  startedAt: Date;
  finishedAt: Date | null;
  expiresAt: Date;
}

/** The lease row of job `name`, for status pages and tests. */
export async function readLease(db: Queryable, name: string): Promise<LeaseState | undefined> {
  const { rows } = await db.query<{
    holder: string;
    started_at: Date;
    finished_at: Date | null;
    expires_at: Date;
  }>('select holder, started_at, finished_at, expires_at from jobs.leases where name = $1', [name]);
  const row = rows[0];
  return (
    row && {
      holder: row.holder,
      startedAt: new Date(row.started_at),
      finishedAt: row.finished_at && new Date(row.finished_at),
      expiresAt: new Date(row.expires_at),
    }
  );
}
