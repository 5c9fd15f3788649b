import type { Queryable } from '../../db/driver.ts';

/**
 * Every SQL statement of the product's mail (private.mail_queue, decision 101), as the connecting role:
 * the queue is private.
 */

export interface QueuedMail {
  id: string;
  to_email: string;
  type: string;
  subject: string;
  body: string;
  link: string | null;
}

/**
 * Claims up to `limit` unsent mails: never-claimed ones, or ones whose claim is older than the lease
 * (a server that stopped while sending). Several servers never claim the same row at once.
 */
export async function claimQueuedMail(
  db: Queryable,
  limit: number,
  leaseSeconds: number,
): Promise<QueuedMail[]> {
  const { rows } = await db.query<QueuedMail>(
    `update private.mail_queue q set claimed_at = now(), attempts = q.attempts + 1
     where q.id in (
       select c.id from private.mail_queue c
       where c.sent_at is null and c.attempts < 10
         and (c.claimed_at is null or c.claimed_at < now() - make_interval(secs => $2))
       order by c.id
       limit $1
       for update skip locked
     )
     returning q.id::text as id, q.to_email, q.type, q.subject, q.body, q.link`,
    [limit, leaseSeconds],
  );
  return rows;
}

export async function markMailSent(db: Queryable, id: string): Promise<void> {
  await db.query('update private.mail_queue set sent_at = now(), last_error = null where id = $1::bigint', [
    id,
  ]);
}

/** A failed delivery is tried again after the lease (up to 10 attempts). */
export async function markMailFailed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query('update private.mail_queue set last_error = left($2, 500) where id = $1::bigint', [
    id,
    error,
  ]);
}

/** Mails queued and not yet sent (still to be tried), for `/metrics`. */
export async function queuedMailCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ queued: number }>(
    'select count(*)::int as queued from private.mail_queue where sent_at is null and attempts < 10',
  );
  return rows[0]?.queued ?? 0;
}
