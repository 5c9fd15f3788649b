import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/**
 * Every SQL statement of the Scammer Network subscription's payments (decisions 131–133). Values are
 * always bind parameters; the private procedures run as the connecting role.
 */

/** Members whose cancelled subscription ends within 3 days are told, once per end date (issue 15). */
export async function remindExpiringSubscriptions(tx: Queryable): Promise<number> {
  const row = await one<{ told: number }>(tx, 'select private.remind_expiring_subscriptions() as told', []);
  return row?.told ?? 0;
}

/** Deletes webhook events received more than 90 days ago; returns how many. */
export async function pruneStripeEvents(tx: Queryable): Promise<number> {
  const row = await one<{ deleted: number }>(tx, 'select private.stripe_events_prune() as deleted', []);
  return row?.deleted ?? 0;
}

/** The member's subscription row as stored. */
export interface SubscriptionRow {
  subscription_type: string;
  status: 'active' | 'cancelled';
  expires_at: Date | string;
  created_at: Date | string;
  provider: 'demo' | 'stripe' | 'admin';
  payment_failed_at: Date | string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
}

/** The member's row, if any. */
export async function currentRow(db: Queryable, userId: string): Promise<SubscriptionRow | undefined> {
  const { rows } = await db.query<SubscriptionRow>(
    `select subscription_type, status, expires_at, created_at, provider, payment_failed_at, stripe_customer_id, stripe_subscription_id
     from public.scammer_subscriptions where user_id = $1`,
    [userId],
  );
  return rows[0];
}

/** The account's email address (Stripe's customer email). */
export async function emailOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string | null }>(
    'select email::text from auth.users where id = $1',
    [userId],
  );
  return rows[0]?.email ?? undefined;
}

/** Demo mode: one month of access, no payment (a running subscription is never extended). */
export async function demoActivate(db: Queryable, userId: string): Promise<SubscriptionRow | undefined> {
  const { rows } = await db.query<SubscriptionRow>('select * from private.demo_activate_subscription($1)', [
    userId,
  ]);
  return rows[0];
}

/** Demo mode: cancelled, access kept until the end of the period. */
export async function demoCancel(db: Queryable, userId: string): Promise<void> {
  await db.query('select private.demo_cancel_subscription($1)', [userId]);
}

/**
 * Applies one Stripe event's fact once, never older over newer (decision 133); answers the outcome
 * (`applied`, `duplicate`, `stale`, `ignored`, …).
 */
export async function applyStripeEvent(
  db: Queryable,
  eventId: string,
  type: string,
  created: Date,
  livemode: boolean,
  fact: unknown,
  graceDays: number,
): Promise<string> {
  const { rows } = await db.query<{ outcome: string }>(
    `select private.stripe_apply_event($1, $2, $3, $4, $5::jsonb, make_interval(days => $6)) as outcome`,
    [eventId, type, created.toISOString(), livemode, JSON.stringify(fact), graceDays],
  );
  return rows[0]?.outcome ?? 'ignored';
}
