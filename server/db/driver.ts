/**
 * One small interface over the two ways HighGrade talks to PostgreSQL: embedded PGlite (default) and
 * a PostgreSQL server through node-postgres. Everything above this file is driver-agnostic.
 */

export interface QueryResult<Row = Record<string, unknown>> {
  rows: Row[];
  /** Rows affected (INSERT/UPDATE/DELETE) or returned. */
  rowCount: number;
  fields: { name: string; dataTypeID: number }[];
}

export interface Queryable {
  /** One statement with bind parameters ($1, $2, ...). */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** Several statements, no parameters (migrations, fixtures). */
  exec(sql: string): Promise<void>;
}

/** Who is asking, as PostgREST sets it for a request: the role and the verified JWT claims. */
export interface RequestScope {
  role: 'anon' | 'authenticated' | 'service_role';
  claims: Record<string, unknown>;
  /** Lower-cased request headers (exposed as `request.headers`, e.g. for the client IP). */
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  /** Milliseconds; unset = the limit of `role` (`DatabaseLimits.statementTimeoutMs`). */
  statementTimeoutMs?: number;
  /** The transaction only reads: it begins `read only`, and a write in it fails with 25006. */
  readOnly?: boolean;
  /**
   * The signed-in caller's account must still exist (decision 097): checked as the transaction opens
   * (on PostgreSQL in the same round trip), failing with AccountGoneError before any work.
   */
  requireAccount?: boolean;
}

/** The scope's account is gone (deleted, or soft-deleted): its token acts for nobody (decision 097). */
export class AccountGoneError extends Error {
  constructor() {
    super('the signed-in account no longer exists');
    this.name = 'AccountGoneError';
  }
}

export type ApiRoleName = RequestScope['role'];

/** How long and how much the API may use the database (decision 092). */
export interface DatabaseLimits {
  /** Longest one statement of a scoped (API) transaction may run, per role, in milliseconds. */
  statementTimeoutMs: Record<ApiRoleName, number>;
  /** Longest a request waits for a connection before it is answered 503 with Retry-After. */
  acquireTimeoutMs: number;
  /** Connections one client (an address, a signed-in user) may hold at once. */
  perClient: number;
}

/** Supabase's defaults (anon 3 s, authenticated 8 s); the server's configuration overrides them. */
export const DEFAULT_LIMITS: DatabaseLimits = {
  statementTimeoutMs: { anon: 3000, authenticated: 8000, service_role: 8000 },
  acquireTimeoutMs: 1000,
  perClient: 1,
};

/** The statement limit that applies to a scope. */
export function statementTimeoutFor(scope: RequestScope, limits: DatabaseLimits): number {
  return scope.statementTimeoutMs ?? limits.statementTimeoutMs[scope.role];
}

export type NotificationHandler = (payload: string) => void;

export interface Database extends Queryable {
  readonly mode: 'embedded' | 'postgres';
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction as `scope.role` with the JWT claims and request details set for the
   * transaction only, so row-level security decides what the statements may see and change.
   */
  withScope<T>(scope: RequestScope, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; resolves to a function that stops listening. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /**
   * Calls `handler` each time the connection carrying LISTEN was opened again after it was lost (a
   * PostgreSQL connection ended, the embedded database's thread replaced): notifications sent in
   * between are gone, so each consumer re-reads what it keeps in step (decision 172). Returns a
   * function that stops the calls.
   */
  onListenerReset(handler: () => void): () => void;
  /** Whether notifications can arrive now (the listening connection is open), for `/ready`. */
  readonly listening: boolean;
  /** How often the embedded database's thread was replaced (always 0 on PostgreSQL), for `/metrics`. */
  readonly restarts: number;
  /**
   * Whether the database answers, for /health: `busy` when every connection is taken by work still
   * within its limits (so nothing could be asked without queueing). Rejects when it is unavailable.
   */
  ping(): Promise<'ok' | 'busy'>;
  /**
   * Embedded only: writes everything committed to DATA_DIR/db (CHECKPOINT), then runs `fn` while no
   * other work can reach the database, so the files on disk are one consistent point in time with
   * every acknowledged write in them: a backup's snapshot point (decision 215).
   */
  quiesce?<T>(fn: (db: Queryable) => Promise<T>): Promise<T>;
  /** Connections in use, how many there are, and work waiting for one, at this moment. */
  readonly activity: { inUse: number; capacity: number; waiting: number };
  close(): Promise<void>;
}

/**
 * The statement that opens every scoped transaction: one round trip, every value a parameter. API
 * statements run without JIT compilation: it pays off only for long analytic queries, and its cost
 * (0.1–0.8 s per statement) is triggered by cost estimates a client can inflate (decision 092).
 */
export const SCOPE_SQL = `select
  set_config('role', $1, true),
  set_config('request.jwt.claims', $2, true),
  set_config('request.headers', $3, true),
  set_config('request.method', $4, true),
  set_config('request.path', $5, true),
  set_config('statement_timeout', $6, true),
  set_config('jit', 'off', true)`;

/**
 * SCOPE_SQL and the account check (decision 097) as one statement, for scopes with `requireAccount`:
 * the scope is set in a subquery that is evaluated first (OFFSET 0 keeps it a subquery, and its
 * volatile set_config calls are never dropped as unused outputs), then `auth.caller_exists()` runs
 * as that role with those claims. Same parameters as SCOPE_SQL; one row, column `exists`.
 */
export const SCOPE_CHECK_SQL = `select auth.caller_exists() as exists from (${SCOPE_SQL} offset 0) as scope`;

export function scopeParams(scope: RequestScope, timeoutMs: number): unknown[] {
  return [
    scope.role,
    JSON.stringify(scope.claims),
    JSON.stringify(scope.headers ?? {}),
    scope.method ?? '',
    scope.path ?? '',
    `${timeoutMs}ms`,
  ];
}

/** The error PostgreSQL raises when a statement runs past `statement_timeout`. */
export function statementTimeoutError(): Error & { code: string } {
  return Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
    severity: 'ERROR',
  });
}

/**
 * Both drivers hand back the same JavaScript types: numbers for int2/int4/float, strings for int8
 * and numeric (no precision loss), booleans, parsed JSON, and dates/times as PostgreSQL's own text
 * (no time-zone conversion on the way through). These are the OIDs whose parsing we pin.
 */
export const TEXT_TYPE_OIDS = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
} as const;
