// @databases: both — row-level security through the API.
/**
 * The row-level-security matrix (tests/integration/rls-matrix.data.ts) through supabase-js against the
 * real server: the same cases the SQL-level runner checks, sent as the web app sends them.
 *
 * - Callers: `anon` is a client with the anon key; `owner`, `other`, `subscriber` and `admin` are
 *   accounts created with the service key (`auth.admin.createUser`, fixed ids) that signed in with
 *   `signInWithPassword` on clients of their own; `service_role` is a client with the service key.
 * - Requests: `.select('*').match(target)`, `.insert(values)`, `.update(set).match(target)`,
 *   `.delete().match(target)`, each with `Prefer: tx=rollback` (PostgREST's commit-allow-override: the
 *   request runs and answers, then its transaction is rolled back), so no case leaves a trace.
 *   Writes ask for `return=minimal` — what supabase-js sends when the web app does not chain
 *   `.select()` — and `count=exact`, whose Content-Range total postgrest-js reads into `count`.
 * - Outcomes: 42501 → denied (HTTP 401 for anon, 403 otherwise, as PostgREST answers); no error and
 *   the row reached (selected, inserted, updated or deleted) → allowed; no error and zero rows →
 *   filtered; anything else is reported with its code and message and fails the case.
 * - A case with `prepare` steps (an insert whose row exists as a fixture) cannot share a transaction
 *   with the service client over HTTP: the rows are read and deleted with the service key first, the
 *   case runs, and the very rows read are put back.
 *
 * Where PostgREST's semantics could differ from the SQL runner's statements: an insert with
 * `return=representation` (`.insert(values).select()`) also needs the row to be readable, so
 * insert-only tables (security_events for members, bookings for anonymous visitors) would answer
 * 42501 although the row may be written. The matrix asks whether the row may be written, which is what
 * the SQL runner's plain INSERT checks and what the web app's `.insert(values)` sends; the
 * representation case is asserted separately below.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTORS,
  type Actor,
  FIXTURE_ROWS,
  type FixtureUser,
  IDS,
  isRef,
  MATRIX,
  OPERATIONS,
  type Outcome,
  type RlsCase,
  rlsCases,
  USERS,
  type Value,
  type Values,
} from '#tests/integration/rls-matrix.data.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signedInUser } from '#tests/support/users.ts';

let server: ServerProcess;
let service: SupabaseClient;
const clients = {} as Record<Actor, SupabaseClient>;

const DAY = 86_400_000;
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const isoTimestamp = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function resolve(value: Value): unknown {
  if (!isRef(value)) return value;
  if ('$user' in value) return USERS[value.$user].id;
  if ('$isoDate' in value) return isoDate(value.$isoDate);
  return isoTimestamp(value.$timestamp);
}

const resolveAll = (values: Values): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([column, value]) => [column, resolve(value)]));

/** Every row of a table as the service role sees it, in a stable order. */
/**
 * Columns computed from the clock at each read (the Trending score decays continuously): left out of
 * snapshots, which compare what the cases wrote.
 */
const CLOCK_COLUMNS: Record<string, string[]> = { product_rankings: ['trending_score'] };

async function snapshot(table: string, match: Values = {}): Promise<Record<string, unknown>[]> {
  const { data, error } = await service.from(table).select('*').match(resolveAll(match));
  for (const row of (data ?? []) as Record<string, unknown>[]) {
    for (const column of CLOCK_COLUMNS[table] ?? []) delete row[column];
  }
  if (error) throw new Error(`reading ${table}: ${error.code} ${error.message}`);
  return (data as Record<string, unknown>[]).sort((a, b) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );
}

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table } of MATRIX) {
    const { count, error } = await service.from(table).select('*', { count: 'exact', head: true });
    if (error) throw new Error(`counting ${table}: ${error.code} ${error.message}`);
    counts[table] = count ?? -1;
  }
  return counts;
}

interface Answer {
  error: { code: string; message: string } | null;
  status: number;
  count?: number | null;
  data?: unknown;
}

/** What a response means in the matrix's terms, or a description of what went wrong. */
function outcomeOf(actor: Actor, answer: Answer, reached: number): Outcome | string {
  const { error, status } = answer;
  if (error) {
    if (error.code === '42501') {
      const expected = actor === 'anon' ? 401 : 403;
      return status === expected ? 'denied' : `denied with HTTP ${status} (PostgREST answers ${expected})`;
    }
    // A read-only view (product_rankings joins tables) refuses writes before any privilege check, as
    // the SQL runner counts it; PostgREST answers PostgreSQL's 55000 with 500.
    if (error.code === '55000' && /cannot (insert into|update|delete from) view/.test(error.message)) {
      return 'denied';
    }
    // So does a computed column of a view (published_scammer_reports' masked name, decision 209):
    // PostgreSQL's 0A000 "cannot insert into column … of view", before any privilege check.
    if (error.code === '0A000' && /cannot (insert into|update) column .* of view/.test(error.message)) {
      return 'denied';
    }
    return `error ${error.code} (HTTP ${status}): ${error.message}`;
  }
  if (reached === 1) return 'allowed';
  if (reached === 0) return 'filtered';
  return `reached ${reached} rows (HTTP ${status}), expected one or none`;
}

const ROLLBACK = 'return=minimal,count=exact,tx=rollback';

/** Runs one case through supabase-js; the outcome it observed. */
async function run(testCase: RlsCase): Promise<Outcome | string> {
  const { request, operation, table, actor } = testCase;
  const client = clients[actor];
  const target = resolveAll(request.target ?? {});
  switch (operation) {
    case 'select': {
      const answer = await client.from(table).select('*').match(target);
      if (!answer.error && answer.status !== 200) return `select answered HTTP ${answer.status}`;
      return outcomeOf(actor, answer, answer.data?.length ?? 0);
    }
    case 'insert': {
      const answer = await client
        .from(table)
        .insert(resolveAll(request.values ?? {}))
        .setHeader('Prefer', ROLLBACK);
      if (!answer.error && answer.status !== 201) return `insert answered HTTP ${answer.status}`;
      return outcomeOf(actor, answer, answer.count ?? -1);
    }
    case 'update': {
      const answer = await client
        .from(table)
        .update(resolveAll(request.set ?? {}))
        .match(target)
        .setHeader('Prefer', ROLLBACK);
      if (!answer.error && answer.status !== 204) return `update answered HTTP ${answer.status}`;
      return outcomeOf(actor, answer, answer.count ?? -1);
    }
    case 'delete': {
      const answer = await client.from(table).delete().match(target).setHeader('Prefer', ROLLBACK);
      if (!answer.error && answer.status !== 204) return `delete answered HTTP ${answer.status}`;
      return outcomeOf(actor, answer, answer.count ?? -1);
    }
  }
}

/** Runs a case with its `prepare` steps: rows removed with the service key, then put back as they were. */
async function runPrepared(testCase: RlsCase): Promise<Outcome | string> {
  const removed: { table: string; rows: Record<string, unknown>[] }[] = [];
  let outcome: Outcome | string = 'not run';
  let failure: unknown;
  const notifiedBefore = new Set((await snapshot('notifications')).map((row) => row.id));
  try {
    for (const step of testCase.request.prepare ?? []) {
      const rows = await snapshot(step.table, step.match);
      const { error } = await service.from(step.table).delete().match(resolveAll(step.match));
      if (error) throw new Error(`preparing ${step.table}: ${error.code} ${error.message}`);
      removed.push({ table: step.table, rows });
    }
    outcome = await run(testCase);
  } catch (error) {
    failure = error;
  }
  for (const { table, rows } of removed.reverse()) {
    if (rows.length === 0) continue;
    const { error } = await service.from(table).insert(rows);
    if (error) throw new Error(`restoring ${table}: ${error.code} ${error.message}`);
  }
  // Restoring a row runs its triggers again (a restored subscription tells its member it is active):
  // what they wrote goes too, so the next case starts from the fixtures.
  const notified = (await snapshot('notifications')).map((row) => row.id as string);
  const added = notified.filter((id) => !notifiedBefore.has(id));
  if (added.length > 0) {
    const { error } = await service.from('notifications').delete().in('id', added);
    if (error) throw new Error(`restoring notifications: ${error.code} ${error.message}`);
  }
  if (failure) throw failure;
  return outcome;
}

let before: Record<string, number>;
let fixtures: Record<string, Record<string, unknown>[]>;

/**
 * Rows no API key may write — the moderation queue is written only by the database's own procedures —
 * are in the database before the server starts, as a project's seed would put them, with the rows they
 * reference.
 */
const SEEDED = ['brands', 'products', 'moderation_items'];
const SEED_SQL = FIXTURE_ROWS.filter((fixture) => SEEDED.includes(fixture.table))
  .map((fixture) => {
    const rows = fixture.rows.map(resolveAll);
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].join(', ');
    const json = JSON.stringify(rows).replaceAll("'", "''");
    return `insert into public.${fixture.table} (${columns}) select ${columns} from json_populate_recordset(null::public.${fixture.table}, '${json}') on conflict do nothing;`;
  })
  .join('\n');

const isActor = (name: FixtureUser): name is FixtureUser & Actor =>
  (ACTORS as readonly string[]).includes(name);

beforeAll(async () => {
  server = await startServerProcess({}, { sql: SEED_SQL });
  service = adminClient(server);
  clients.anon = clientFor(server);
  clients.service_role = service;
  for (const name of Object.keys(USERS) as FixtureUser[]) {
    // Every fixture account exists; those that are callers of the matrix keep their client.
    const { client } = await signedInUser(server, USERS[name]);
    if (isActor(name)) clients[name] = client;
  }
  for (const fixture of FIXTURE_ROWS) {
    if (SEEDED.includes(fixture.table)) continue;
    const { error } = await service
      .from(fixture.table)
      .upsert(fixture.rows.map(resolveAll), { onConflict: fixture.upsertOn.join(',') });
    if (error) throw new Error(`fixture ${fixture.table}: ${error.code} ${error.message}`);
  }
  // The fixture vote marked its product's tally for the live broadcast; the server's job clears the
  // mark within a second (decision 156) and sums the product's brand in the same transaction (159).
  // Snapshots are taken after that, so the job never differs from them (every case below rolls back,
  // so nothing marks a tally again).
  for (let waited = 0; ; waited += 100) {
    const marked = await service.from('product_tallies').select('product_id').eq('live_pending', true);
    if (marked.error) throw new Error(`product_tallies: ${marked.error.message}`);
    if (marked.data.length === 0) break;
    if (waited > 15_000) throw new Error('the live tallies job never cleared the fixture tally');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  before = await rowCounts();
  fixtures = {};
  for (const { table } of MATRIX) fixtures[table] = await snapshot(table);
});
afterAll(() => server?.close());

const cases = rlsCases();

describe('the RLS matrix through supabase-js', () => {
  // That the matrix names every table and view of the public schema is checked against the catalog
  // by tests/integration/rls-matrix.test.ts; this black-box runner sees only the API.
  it('runs every table of the matrix for every caller and operation', () => {
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
    const variants = MATRIX.reduce((sum, entry) => sum + (entry.variants?.length ?? 0), 0);
    expect(cases.length).toBe(MATRIX.length * OPERATIONS.length * ACTORS.length + ACTORS.length * variants);
  });

  it('signs each caller in as the account it stands for', async () => {
    for (const name of (Object.keys(USERS) as FixtureUser[]).filter(isActor)) {
      const { data, error } = await clients[name].auth.getUser();
      expect(error).toBeNull();
      expect(data.user?.id).toBe(USERS[name].id);
    }
  });

  it('has fixtures the cases can tell apart (the trial ended; access only by subscription or role)', async () => {
    const values: Record<string, unknown> = {};
    for (const actor of ACTORS) {
      const { data, error } = await clients[actor].rpc('has_scammer_access');
      values[actor] = error ? error.code : data;
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
    const prepared = (testCase.request.prepare?.length ?? 0) > 0;
    const outcome = prepared ? await runPrepared(testCase) : await run(testCase);
    expect(outcome).toBe(testCase.expected);
    // Rolled back (and restored): the table holds exactly the fixtures it held before.
    if (testCase.operation !== 'select') {
      expect(await snapshot(testCase.table)).toEqual(fixtures[testCase.table]);
    }
  });

  it('left every table as it was (each case rolled back)', async () => {
    expect(await rowCounts()).toEqual(before);
    for (const { table } of MATRIX) expect(await snapshot(table), table).toEqual(fixtures[table]);
  });
});

describe('PostgREST semantics the matrix does not show', () => {
  it('an insert that asks for the row back also needs the right to read it', async () => {
    // Members may log security events about themselves but not read them: `.insert(values)` is
    // allowed (above), `.insert(values).select()` is refused as a whole and writes nothing.
    const event = {
      type: 'auth',
      category: 'authentication',
      action: 'signin_failed',
      user_id: USERS.owner.id,
    };
    const minimal = await clients.owner.from('security_events').insert(event).setHeader('Prefer', ROLLBACK);
    expect(minimal.error).toBeNull();
    expect(minimal.count).toBe(1);
    const representation = await clients.owner.from('security_events').insert(event).select();
    expect(representation.status).toBe(403);
    expect(representation.error?.code).toBe('42501');
    // Anonymous bookings likewise: written with return=minimal, refused (401) when read back.
    const booking = {
      full_name: 'Brand Owner',
      email: 'brand@example.com',
      product_name: 'Sunset Gummies',
      product_category: 'Edibles',
      booking_date: isoDate(7),
      booking_time: '10:30',
    };
    const anonymous = await clients.anon.from('bookings').insert(booking).select();
    expect(anonymous.status).toBe(401);
    expect(anonymous.error?.code).toBe('42501');
    expect(await rowCounts()).toEqual(before);
  });

  it('an update or delete filtered away by RLS is not an error, only zero rows', async () => {
    const update = await clients.other
      .from('notifications')
      .update({ is_read: true })
      .eq('id', IDS.notification)
      .select();
    expect(update).toMatchObject({ error: null, status: 200, data: [] });
    const remove = await clients.other
      .from('saved_articles')
      .delete({ count: 'exact' })
      .eq('id', IDS.savedArticle);
    expect(remove).toMatchObject({ error: null, status: 204, count: 0 });
    expect(await snapshot('notifications')).toEqual(fixtures.notifications);
    expect(await snapshot('saved_articles')).toEqual(fixtures.saved_articles);
  });
});
