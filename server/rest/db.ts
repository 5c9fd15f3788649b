import { AccountGoneError, type Database, type Queryable, type RequestScope } from '../db/driver.ts';
import { restErrors } from './errors.ts';
import type { PlannedRequest, ReadNode } from './plan.ts';
import {
  type CountMethod,
  callSource,
  insertedCountSql,
  type MutationSql,
  mutationStatement,
  Params,
  plannedCountStatement,
  readStatement,
  scalarCallStatement,
  withCtes,
} from './query.ts';

/**
 * Runs a plan's statements in one scoped transaction: the role, the JWT claims and the request
 * headers are set first (RLS decides from there), reads and non-volatile calls run read-only, and a
 * mutation and its read-back are one statement, so a failed request leaves nothing behind.
 */

export interface Outcome {
  /** Total rows matching (count=...), if asked for. */
  total?: number;
  /** Rows in the page returned, or rows affected by a mutation. */
  pageTotal: number;
  /** Body as built by the database (JSON or CSV text). */
  body?: string;
  /** Primary key values of the first inserted row (return=headers-only). */
  locationRow?: Record<string, unknown>;
  /** The function returned void. */
  noContent?: boolean;
  /** Rows a merging upsert inserted rather than updated (PostgREST's `pgrst.inserted`). */
  inserted?: number;
  /** The statement's EXPLAIN output, when a plan media type was asked for (decision 153). */
  plan?: string;
}

/** EXPLAIN of the statement the request would run, as PostgREST's explainF writes it. */
async function explain(
  tx: Queryable,
  planned: PlannedRequest,
  sql: string,
  params: unknown[],
): Promise<Outcome> {
  const choice = planned.media.plan;
  if (!choice) throw new Error('explain without a plan media type');
  const options = [`format ${choice.format}`, ...choice.options];
  const result = await tx.query<Record<string, unknown>>(`explain (${options.join(', ')}) ${sql}`, params);
  const cells = result.rows.map((row) => Object.values(row)[0]);
  const text =
    choice.format === 'json'
      ? typeof cells[0] === 'string'
        ? cells[0]
        : JSON.stringify(cells[0])
      : `${cells.map(String).join('\n')}\n`;
  return { pageTotal: 0, plan: text };
}

interface PageRow {
  total: string | number | null;
  page_total: string | number;
  body: string | null;
}

const toNumber = (value: string | number | null | undefined): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

async function one(tx: Queryable, sql: string, params: unknown[]): Promise<PageRow> {
  const result = await tx.query<PageRow>(sql, params);
  const row = result.rows[0];
  if (!row) throw new Error('the read statement returned no row');
  return row;
}

async function plannedCount(
  tx: Queryable,
  node: ReadNode,
  cte?: (p: Params) => MutationSql,
): Promise<number> {
  const p = new Params();
  const sql = plannedCountStatement(p, node, cte?.(p));
  const result = await tx.query<Record<string, unknown>>(sql, p.values);
  const plan = Object.values(result.rows[0] ?? {})[0];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
    Plan?: { 'Plan Rows'?: number };
  }[];
  return Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

function countMethod(planned: PlannedRequest, countable: boolean): CountMethod {
  if (!countable) return undefined;
  const count = planned.prefer.count;
  if (count === 'exact') return 'exact';
  if (count === 'estimated') return 'estimated-capped';
  return undefined;
}

async function runRead(
  tx: Queryable,
  planned: PlannedRequest,
  node: ReadNode,
  options: {
    head: boolean;
    countable: boolean;
    maxRows: number;
    single?: boolean;
    cte?: (p: Params) => MutationSql;
  },
): Promise<Outcome> {
  const p = new Params();
  const count = countMethod(planned, options.countable);
  const cte = options.cte?.(p);
  const sql = readStatement(p, node, {
    media: planned.media,
    head: options.head,
    count,
    countCap: options.maxRows,
    ...(cte ? { cte } : {}),
    ...(options.single ? { single: true } : {}),
  });
  if (planned.media.plan) return explain(tx, planned, sql, p.values);
  const row = await one(tx, sql, p.values);
  let total = toNumber(row.total);
  if (options.countable && planned.prefer.count === 'planned') {
    total = await plannedCount(tx, node, options.cte);
  } else if (count === 'estimated-capped' && total !== undefined && total > options.maxRows) {
    total = Math.max(await plannedCount(tx, node, options.cte), total);
  }
  const outcome: Outcome = { pageTotal: toNumber(row.page_total) ?? 0 };
  if (total !== undefined) outcome.total = total;
  if (row.body !== null) outcome.body = row.body;
  return outcome;
}

function checkSingular(planned: PlannedRequest, rows: number): void {
  if (planned.media.kind === 'object' && rows !== 1) throw restErrors.singularity(rows);
}

function checkMaxAffected(planned: PlannedRequest, rows: number): void {
  const { handling, maxAffected } = planned.prefer;
  if (handling === 'strict' && maxAffected !== undefined && rows > maxAffected) {
    throw restErrors.maxAffected(rows);
  }
}

/**
 * A signed-in caller's account must still exist: its access token outlives a deletion by up to
 * JWT_EXPIRY, and the request must not run as a user who is gone (decision 097). The driver checks it
 * as the transaction opens (`requireAccount`), on PostgreSQL in the same round trip.
 */
function withAccountCheck(scope: RequestScope): RequestScope {
  return scope.role === 'authenticated' && typeof scope.claims.sub === 'string'
    ? { ...scope, requireAccount: true }
    : scope;
}

async function scoped<T>(db: Database, scope: RequestScope, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.withScope(withAccountCheck(scope), fn);
  } catch (error) {
    if (error instanceof AccountGoneError) throw restErrors.accountGone();
    throw error;
  }
}

export async function execute(
  db: Database,
  scope: RequestScope,
  planned: PlannedRequest,
  options: { maxRows: number },
): Promise<Outcome> {
  const plan = planned.plan;
  // Reads and calls of stable/immutable functions run read-only (a write fails with 25006 → 405).
  const readOnly = plan.kind === 'read' || (plan.kind === 'call' && plan.call.readOnly);
  const requestScope = readOnly ? { ...scope, readOnly } : scope;
  const run = (tx: Queryable) => executeWith(tx, planned, options);
  if (planned.prefer.tx !== 'rollback') return scoped(db, requestScope, run);
  // Answer as usual, then undo: the outcome leaves the transaction inside the rollback sentinel.
  try {
    await scoped(db, requestScope, async (tx) => {
      throw new RolledBack(await run(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.outcome;
    throw error;
  }
  throw new Error('unreachable: a tx=rollback request always ends in its sentinel');
}

class RolledBack extends Error {
  constructor(readonly outcome: Outcome) {
    super('tx=rollback');
  }
}

async function executeWith(
  tx: Queryable,
  planned: PlannedRequest,
  options: { maxRows: number },
): Promise<Outcome> {
  const plan = planned.plan;
  {
    // PostgREST runs each request with its schema first on the search_path (then `public`), so
    // functions and policies written with unqualified names find that schema's objects. Requests in
    // `public` keep the connection's own search_path: no extra statement (decision 155).
    const searchPath = planned.schema.searchPath;
    if (searchPath !== undefined) {
      await tx.query("select pg_catalog.set_config('search_path', $1, true)", [searchPath]);
    }
    if (planned.prefer.timezone !== undefined) {
      const result = await tx.query(
        "select set_config('timezone', name, true) from pg_catalog.pg_timezone_names where name = $1 limit 1",
        [planned.prefer.timezone],
      );
      if (result.rows.length === 0) {
        if (planned.prefer.handling === 'strict') {
          throw restErrors.invalidPreferences([`timezone=${planned.prefer.timezone}`]);
        }
        planned.applied = planned.applied.filter((pref) => !pref.startsWith('timezone='));
      }
    }

    if (plan.kind === 'read') {
      const outcome = await runRead(tx, planned, plan.read, {
        head: plan.head,
        countable: true,
        maxRows: options.maxRows,
      });
      if (outcome.plan === undefined) checkSingular(planned, outcome.pageTotal);
      return outcome;
    }

    if (plan.kind === 'mutate') {
      const { mutation } = plan;
      let outcome: Outcome;
      if (plan.read) {
        const representation = planned.prefer.return === 'representation';
        outcome = await runRead(tx, planned, plan.read, {
          head: false,
          countable: false,
          maxRows: options.maxRows,
          cte: (p) => mutationStatement(p, mutation, plan.returning),
        });
        if (outcome.plan !== undefined) return outcome;
        if (!representation) {
          const rows = outcome.body ? (JSON.parse(outcome.body) as Record<string, unknown>[]) : [];
          outcome.locationRow = (Array.isArray(rows) ? rows[0] : rows) ?? {};
          delete outcome.body;
        }
      } else {
        const p = new Params();
        const { ctes, sql } = mutationStatement(p, mutation);
        if (planned.media.plan) return explain(tx, planned, withCtes(ctes, sql), p.values);
        const result = await tx.query<{ pgrst_affected?: string }>(withCtes(ctes, sql), p.values);
        const affected =
          mutation.kind === 'insert' && mutation.groups.length > 1
            ? Number(result.rows[0]?.pgrst_affected ?? 0)
            : result.rowCount;
        outcome = { pageTotal: affected };
      }
      if (mutation.kind === 'insert' && mutation.onConflict?.action === 'update') {
        const inserted = await tx.query<{ inserted: number | null }>(insertedCountSql, []);
        outcome.inserted = Number(inserted.rows[0]?.inserted ?? 0);
      }
      if (planned.prefer.count !== undefined) outcome.total = outcome.pageTotal;
      checkSingular(planned, outcome.pageTotal);
      if (mutation.kind !== 'insert') checkMaxAffected(planned, outcome.pageTotal);
      return outcome;
    }

    const { call } = plan;
    if (plan.read) {
      const outcome = await runRead(tx, planned, plan.read, {
        head: plan.head,
        countable: plan.countable,
        maxRows: options.maxRows,
        single: !call.routine.setOf,
        cte: (p) => callSource(p, call),
      });
      if (outcome.plan !== undefined) return outcome;
      if (call.routine.setOf) checkSingular(planned, outcome.pageTotal);
      checkMaxAffected(planned, outcome.pageTotal);
      return outcome;
    }
    const p = new Params();
    const top = planned.offset;
    const sql = scalarCallStatement(p, call, {
      head: plan.head,
      count: plan.countable && planned.prefer.count !== undefined,
      ...(top > 0 ? { offset: top } : {}),
      ...(planned.limit !== undefined ? { limit: planned.limit } : {}),
    });
    if (planned.media.plan) return explain(tx, planned, sql, p.values);
    const result = await tx.query<PageRow>(sql, p.values);
    if (call.routine.returns.kind === 'void') return { pageTotal: 0, noContent: true };
    const row = result.rows[0];
    const outcome: Outcome = { pageTotal: toNumber(row?.page_total) ?? 0 };
    const total = toNumber(row?.total);
    if (total !== undefined) outcome.total = total;
    if (row?.body !== null && row?.body !== undefined) outcome.body = row.body;
    checkMaxAffected(planned, outcome.pageTotal);
    return outcome;
  }
}
