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

// ---------------------------------------------------------------------------------------------
// The schema cache's catalog queries (schema-cache.ts builds the cache from their rows). Plain SQL
// without parameters from requests; run as the connecting user.

const RELATIONS_SQL = `
select c.oid::int8::text as oid, n.nspname as schema, c.relname as name, c.relkind::text as kind
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'v', 'm', 'f', 'p')
  and not c.relispartition
  and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
order by c.relname`;

const COLUMNS_SQL = `
select a.attrelid::int8::text as oid, a.attname as name, a.attnum::int as position,
  format_type(a.atttypid, a.atttypmod) as type,
  coalesce(bt.typname, t.typname)::text as type_name,
  not a.attnotnull as nullable,
  (a.attgenerated <> '' or a.attidentity = 'a') as generated
from pg_attribute a
join pg_class c on c.oid = a.attrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_type t on t.oid = a.atttypid
left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
where a.attnum > 0 and not a.attisdropped
  and c.relkind in ('r', 'v', 'm', 'f', 'p', 'c')
  and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
order by a.attrelid, a.attnum`;

const KEYS_SQL = `
select con.conrelid::int8::text as oid, con.contype::text as type, con.conname as name,
  con.confrelid::int8::text as foreign_oid,
  to_json(array(
    select a.attname from unnest(con.conkey) with ordinality k(num, ord)
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.ord)) as columns,
  to_json(array(
    select a.attname from unnest(con.confkey) with ordinality k(num, ord)
    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.ord)) as foreign_columns
from pg_constraint con
join pg_namespace n on n.oid = con.connamespace
where con.contype in ('p', 'u', 'f')
  and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
order by con.conname`;

const VIEWS_SQL = `
select r.ev_class::int8::text as oid, r.ev_action::text as action
from pg_rewrite r
join pg_class c on c.oid = r.ev_class
join pg_namespace n on n.oid = c.relnamespace
where r.rulename = '_RETURN' and c.relkind in ('v', 'm')
  and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`;

const ROUTINES_SQL = `
select n.nspname as schema, p.proname as name, p.provolatile::text as volatility, p.proretset as set_of,
  format_type(p.prorettype, null) as return_type, rt.typname::text as return_type_name,
  rt.typtype::text as return_typtype, rt.typrelid::int8::text as return_relid,
  p.pronargs::int as nargs, p.pronargdefaults::int as ndefaults, p.prorows::float8 as rows, p.provariadic::int8 <> 0 as variadic,
  to_json(coalesce(p.proargnames, '{}'::text[])) as arg_names,
  to_json(coalesce(p.proargmodes::text[], '{}'::text[])) as arg_modes,
  to_json(array(
    select format_type(x.oid, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]))
    with ordinality x(oid, ord) order by x.ord)) as arg_types,
  to_json(array(
    select coalesce(bt.typname, t.typname)::text
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality x(oid, ord)
    join pg_type t on t.oid = x.oid left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
    order by x.ord)) as arg_type_names,
  coalesce((select t.typrelid from pg_type t where t.oid = p.proargtypes[0]), 0)::int8::text as first_arg_relid
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = any($1::text[]) and p.prokind = 'f'
  and rt.typname not in ('trigger', 'event_trigger', 'internal', 'language_handler', 'fdw_handler',
    'index_am_handler', 'tsm_handler', 'table_am_handler')
order by p.proname, p.oid`;

const TYPES_SQL = `
select n.nspname as schema, t.typname::text as name
from pg_type t join pg_namespace n on n.oid = t.typnamespace
where (n.nspname = 'pg_catalog' or n.nspname = any($1::text[])) and t.typtype in ('b', 'd', 'e', 'r', 'm', 'c')
  and (t.typrelid = 0 or n.nspname <> 'pg_catalog')`;

const NAMESPACES_SQL = `select n.nspname as name from pg_namespace n where n.nspname = any($1::text[])`;

export interface RelationRow {
  oid: string;
  schema: string;
  name: string;
  kind: string;
}
export interface ColumnRow {
  oid: string;
  name: string;
  position: number;
  type: string;
  type_name: string;
  nullable: boolean;
  generated: boolean;
}
export interface KeyRow {
  oid: string;
  type: 'p' | 'u' | 'f';
  name: string;
  foreign_oid: string;
  columns: string[];
  foreign_columns: string[];
}
export interface RoutineRow {
  schema: string;
  name: string;
  volatility: 'i' | 's' | 'v';
  set_of: boolean;
  return_type: string;
  return_type_name: string;
  return_typtype: string;
  return_relid: string;
  nargs: number;
  ndefaults: number;
  rows: number;
  variadic: boolean;
  arg_names: string[];
  arg_modes: string[];
  arg_types: string[];
  arg_type_names: string[];
  /** The relation whose row type the first argument is ('0': none). */
  first_arg_relid: string;
}

/** What the schema cache is built from: the catalog's rows, read one query after the other. */
export async function readCatalog(
  db: Queryable,
  schemas: readonly string[],
  routineSchemas: readonly string[],
) {
  const relationRows = (await db.query<RelationRow>(RELATIONS_SQL)).rows;
  const columnRows = (await db.query<ColumnRow>(COLUMNS_SQL)).rows;
  const keyRows = (await db.query<KeyRow>(KEYS_SQL)).rows;
  const viewRows = (await db.query<{ oid: string; action: string }>(VIEWS_SQL)).rows;
  const routineRows = (await db.query<RoutineRow>(ROUTINES_SQL, [routineSchemas])).rows;
  const typeRows = (await db.query<{ schema: string; name: string }>(TYPES_SQL, [routineSchemas])).rows;
  const settings = await db.query<{ config: string }>(
    "select current_setting('default_text_search_config') as config",
  );
  const namespaceRows = (await db.query<{ name: string }>(NAMESPACES_SQL, [[...schemas]])).rows;
  return {
    relationRows,
    columnRows,
    keyRows,
    viewRows,
    routineRows,
    typeRows,
    textSearchConfig: settings.rows[0]?.config,
    namespaceRows,
  };
}
