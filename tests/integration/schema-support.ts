/**
 * Helpers for the product-schema tests (schema-*.test.ts, rls-matrix.test.ts): accounts in auth.users,
 * request scopes as the Data API sets them, and statements run as a caller and then rolled back, so a
 * test can try anything without changing what the next one sees.
 */
import type { Database, Queryable, RequestScope } from '#server/db/driver.ts';

export interface DbError {
  code: string;
  message: string;
  constraint?: string;
  detail?: string;
  hint?: string;
}

/** The address the API layer records for the client (request.headers, as scopeFor sets it). */
export const DEFAULT_IP = '198.51.100.10';

export const anon = (ip = DEFAULT_IP): RequestScope => ({
  role: 'anon',
  claims: { role: 'anon' },
  headers: { 'x-forwarded-for': ip, 'x-real-ip': ip },
});

export const user = (id: string, ip = DEFAULT_IP, email?: string): RequestScope => ({
  role: 'authenticated',
  claims: { sub: id, role: 'authenticated', aud: 'authenticated', ...(email ? { email } : {}) },
  headers: { 'x-forwarded-for': ip, 'x-real-ip': ip },
});

export const serviceRole = (ip = DEFAULT_IP): RequestScope => ({
  role: 'service_role',
  claims: { role: 'service_role' },
  headers: { 'x-forwarded-for': ip, 'x-real-ip': ip },
});

/**
 * An account row inserted into auth.users as the auth service would (the product's trigger gives each
 * one a profile): these tests run on a database without a server, so there is no admin API to ask.
 */
export async function insertAccount(
  db: Database,
  account: { id: string; email: string | null; fullName?: string },
): Promise<void> {
  await db.query(
    // Confirmed when there is an address (voting needs it, decision 116).
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at)
     values ($1, $2::text, $3, $4, $5, case when $2::text is not null then now() end)`,
    [
      account.id,
      account.email,
      'authenticated',
      'authenticated',
      JSON.stringify(account.fullName ? { full_name: account.fullName } : {}),
    ],
  );
}

/** Ends the trial of a user, so only a subscription or the admin role gives access. */
export async function expireTrial(db: Database, id: string): Promise<void> {
  await db.query(`update public.profiles set trial_ends_at = now() - interval '1 day' where user_id = $1`, [
    id,
  ]);
}

/** Pass or Gas products with these ids (votes and comments must name real products). */
export async function createProducts(db: Database, ids: string[]): Promise<void> {
  await db.query(
    `insert into public.products (id, name, category) select id, 'Product ' || id, 'Flower' from unnest($1::text[]) as id
     on conflict (id) do nothing`,
    [ids],
  );
}

export async function makeAdmin(db: Database, id: string): Promise<void> {
  await db.query(
    `insert into public.user_roles (user_id, role) values ($1, 'admin') on conflict do nothing`,
    [id],
  );
}

/**
 * Sets the server's limits for an action of the rate-limit procedures (private.rate_limit_rules), as an
 * operator would: the procedures apply these whatever limits their caller passes.
 */
export async function setRateLimitRule(
  db: Database,
  action: string,
  rule: { max: number; windowMinutes?: number; maxIp?: number; delaySeconds?: number },
): Promise<void> {
  await db.query(
    `insert into private.rate_limit_rules (action_type, max_attempts, window_minutes, max_ip_attempts, base_delay_seconds)
     values ($1, $2, $3, $4, $5)
     on conflict (action_type) do update set max_attempts = excluded.max_attempts,
       window_minutes = excluded.window_minutes, max_ip_attempts = excluded.max_ip_attempts,
       base_delay_seconds = excluded.base_delay_seconds`,
    [action, rule.max, rule.windowMinutes ?? 60, rule.maxIp ?? rule.max * 10, rule.delaySeconds ?? 60],
  );
}

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: DbError };

/**
 * Runs `fn` as `scope` and rolls everything back. Resolves to the value, or to the database error
 * (SQLSTATE code, message, constraint) when a statement failed.
 */
export async function attempt<T>(
  db: Database,
  scope: RequestScope,
  fn: (tx: Queryable) => Promise<T>,
): Promise<Attempt<T>> {
  try {
    await db.withScope(scope, async (tx) => {
      throw new Rollback(await fn(tx));
    });
  } catch (caught) {
    if (caught instanceof Rollback) return { ok: true, value: caught.value as T };
    const error = caught as Partial<DbError>;
    if (typeof error.code !== 'string') throw caught;
    if (error.code === 'PGRST') {
      // RAISE SQLSTATE 'PGRST': the answer PostgREST gives is in the message (code, message, …).
      const body = JSON.parse(String(error.message)) as { code: string; message: string; hint?: string };
      return {
        ok: false,
        error: { code: body.code, message: body.message, detail: error.detail, hint: body.hint },
      };
    }
    return {
      ok: false,
      error: {
        code: error.code,
        message: String(error.message),
        constraint: error.constraint,
        detail: error.detail,
        hint: error.hint,
      },
    };
  }
  throw new Error('unreachable: the scoped transaction neither returned nor failed');
}

/** Runs one statement as `scope` and commits it (for arranging state that later steps build on). */
export async function runAs<Row = Record<string, unknown>>(
  db: Database,
  scope: RequestScope,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return db.withScope(scope, async (tx) => (await tx.query<Row>(sql, params)).rows);
}

/** One statement as `scope`, rolled back: its rows, or its error. */
export async function tryAs<Row = Record<string, unknown>>(
  db: Database,
  scope: RequestScope,
  sql: string,
  params: unknown[] = [],
): Promise<Attempt<{ rows: Row[]; rowCount: number }>> {
  return attempt(db, scope, async (tx) => {
    const result = await tx.query<Row>(sql, params);
    return { rows: result.rows, rowCount: result.rowCount };
  });
}

/** A calendar date (yyyy-MM-dd, UTC) `days` from today. */
export function isoDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A timestamp `days` from now, as ISO 8601. */
export function isoTimestamp(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}
