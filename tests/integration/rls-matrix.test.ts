// @databases: both — row-level security at SQL level.
/**
 * Runs the row-level-security matrix (rls-matrix.data.ts) against the product schema at SQL level:
 * each case in its own transaction as anon, a signed-in user or service_role (db.withScope, as the
 * Data API runs requests), rolled back afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, RequestScope } from '#server/db/driver.ts';
import { quoteIdent, quoteQualified } from '#server/db/sql.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import {
  ACTORS,
  type Actor,
  FIXTURE_ROWS,
  isRef,
  MATRIX,
  OPERATIONS,
  type Outcome,
  type RlsCase,
  rlsCases,
  USERS,
  type Value,
  type Values,
} from './rls-matrix.data.ts';
import { anon, attempt, insertAccount, isoDate, isoTimestamp, serviceRole, user } from './schema-support.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

function resolve(value: Value): unknown {
  if (!isRef(value)) return value;
  if ('$user' in value) return USERS[value.$user].id;
  if ('$isoDate' in value) return isoDate(value.$isoDate);
  return isoTimestamp(value.$timestamp);
}

function scopeOf(actor: Actor): RequestScope {
  // Every actor comes from its own address, so per-address limits never mix cases up.
  const ip = `198.51.100.${ACTORS.indexOf(actor) + 1}`;
  if (actor === 'anon') return anon(ip);
  if (actor === 'service_role') return serviceRole(ip);
  return user(USERS[actor].id, ip, USERS[actor].email);
}

/** `"col" = $n and ...` with its parameters, starting at `$offset + 1`. */
function where(match: Values, offset = 0): { sql: string; params: unknown[] } {
  const entries = Object.entries(match);
  return {
    sql: entries.map(([column], index) => `${quoteIdent(column)} = $${offset + index + 1}`).join(' and '),
    params: entries.map(([, value]) => resolve(value)),
  };
}

async function insertRow(tx: Queryable, table: string, values: Values, upsertOn?: string[]): Promise<void> {
  const columns = Object.keys(values);
  const conflict = upsertOn
    ? ` on conflict (${upsertOn.map(quoteIdent).join(', ')}) do update set ${columns
        .map((column) => `${quoteIdent(column)} = excluded.${quoteIdent(column)}`)
        .join(', ')}`
    : '';
  await tx.query(
    `insert into ${quoteQualified('public', table)} (${columns.map(quoteIdent).join(', ')}) values (${columns
      .map((_, index) => `$${index + 1}`)
      .join(', ')})${conflict}`,
    Object.values(values).map(resolve),
  );
}

/** Runs one case; the outcome it observed, or a description of an unexpected error. */
async function run(testCase: RlsCase): Promise<Outcome | string> {
  const { request, operation, table } = testCase;
  const scope = scopeOf(testCase.actor);
  const result = await attempt(db, scope, async (tx) => {
    if (request.prepare?.length) {
      // Arrange as the database owner inside the same (rolled back) transaction, then become the caller.
      await tx.query('set local role none');
      for (const step of request.prepare) {
        const filter = where(step.match);
        await tx.query(
          `delete from ${quoteQualified('public', step.table)} where ${filter.sql}`,
          filter.params,
        );
      }
      await tx.query(`select set_config('role', $1, true)`, [scope.role]);
    }
    const relation = quoteQualified('public', table);
    switch (operation) {
      case 'select': {
        const filter = where(request.target ?? {});
        return (await tx.query(`select * from ${relation} where ${filter.sql}`, filter.params)).rows.length;
      }
      case 'insert':
        await insertRow(tx, table, request.values ?? {});
        return 1;
      case 'update': {
        const set = Object.entries(request.set ?? {});
        const filter = where(request.target ?? {}, set.length);
        const assignments = set.map(([column], index) => `${quoteIdent(column)} = $${index + 1}`).join(', ');
        return (
          await tx.query(`update ${relation} set ${assignments} where ${filter.sql}`, [
            ...set.map(([, value]) => resolve(value)),
            ...filter.params,
          ])
        ).rowCount;
      }
      case 'delete': {
        const filter = where(request.target ?? {});
        return (await tx.query(`delete from ${relation} where ${filter.sql}`, filter.params)).rowCount;
      }
    }
  });
  if (result.ok) return result.value > 0 ? 'allowed' : 'filtered';
  if (result.error.code === '42501') return 'denied';
  // A read-only view (product_rankings joins tables) refuses writes before any privilege check.
  if (
    result.error.code === '55000' &&
    /cannot (insert into|update|delete from) view/.test(result.error.message)
  ) {
    return 'denied';
  }
  // So does a computed column of a view (published_scammer_reports' masked name, decision 209).
  if (
    result.error.code === '0A000' &&
    /cannot (insert into|update) column .* of view/.test(result.error.message)
  ) {
    return 'denied';
  }
  return `error ${result.error.code}: ${result.error.message}`;
}

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table } of MATRIX) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from ${quoteQualified('public', table)}`,
    );
    counts[table] = rows[0]?.n ?? -1;
  }
  return counts;
}

let before: Record<string, number>;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  for (const account of Object.values(USERS)) {
    await insertAccount(db, { id: account.id, email: account.email });
  }
  // Members with confirmed email addresses, as voting requires (decision 116).
  await db.query('update auth.users set email_confirmed_at = now() where email_confirmed_at is null');
  await db.transaction(async (tx) => {
    for (const fixture of FIXTURE_ROWS) {
      for (const row of fixture.rows) await insertRow(tx, fixture.table, row, fixture.upsertOn);
    }
  });
  before = await rowCounts();
});
afterAll(() => handle?.close());

const cases = rlsCases();

describe('the RLS matrix', () => {
  it('covers every table of the public schema for every caller and operation', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') order by 1`,
    );
    expect(MATRIX.map((entry) => entry.table).sort()).toEqual(rows.map((row) => row.name));
    for (const entry of MATRIX) {
      for (const operation of OPERATIONS) {
        for (const actor of ACTORS) {
          expect(
            cases.some(
              (c) => c.table === entry.table && c.operation === operation && c.actor === actor && !c.variant,
            ),
          ).toBe(true);
        }
      }
    }
    expect(cases.length).toBe(MATRIX.length * OPERATIONS.length * ACTORS.length + 6 * countVariants());
  });

  it('has fixtures the cases can tell apart (the trial ended; access only by subscription or role)', async () => {
    const values: Record<string, unknown> = {};
    for (const actor of ACTORS) {
      const result = await attempt(db, scopeOf(actor), async (tx) => {
        const { rows } = await tx.query<{ access: boolean }>('select public.has_scammer_access() as access');
        return rows[0]?.access;
      });
      values[actor] = result.ok ? result.value : result.error.code;
    }
    expect(values).toEqual({
      anon: false,
      owner: true, // the owner's fixture subscription is active
      other: false,
      subscriber: true,
      admin: true,
      service_role: false, // no user: service_role reads everything anyway
    });
  });

  it.each(
    cases.map(
      (c) => [`${c.table} · ${c.operation}${c.variant ? ` (${c.variant})` : ''} · ${c.actor}`, c] as const,
    ),
  )('%s', async (_name, testCase) => {
    expect(await run(testCase)).toBe(testCase.expected);
  });

  it('left every fixture as it was (each case rolled back)', async () => {
    expect(await rowCounts()).toEqual(before);
  });
});

function countVariants(): number {
  return MATRIX.reduce((sum, entry) => sum + (entry.variants?.length ?? 0), 0);
}
