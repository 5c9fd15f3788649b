/**
 * Can one kind of request stall everyone? (issue 13, docs/decisions/092; figures printed, never
 * asserted.) 40,000 product comments are seeded, then 20 reader clients (each its own address) read
 * comments by primary key while, in turn:
 *  1. nobody attacks (the readers' baseline);
 *  2. 4 anonymous clients from one address repeat the search that took 19 s before the search
 *     indexes: `content=fts.zzz & !qqq`;
 *  3. 4 anonymous clients from one address repeat a search no index can serve (one `fts` per text
 *     search configuration, or-ed): slow on any database, so it runs into the anon statement limit;
 *  4. the same from 4 addresses.
 * Printed per phase: the readers' p50/p99 and how their requests were answered, and for the attack
 * how its requests were answered and when the slow ones ended (the anon limit is 3 s): as the client
 * saw it (including its wait for a connection) and, on PGlite, as the server measured it from the
 * statement's start to the end of its thread (PostgreSQL cancels statements itself).
 *
 * Run: npx tsx bench/stall.ts [postgres|pglite|both] [seconds per phase=15]
 * PostgreSQL needs BENCH_PG_URL or TEST_PG_URL (a server to create a scratch database on). The server
 * runs as its own process (`scripts/start.mjs`, as `npm start`), on both databases.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#server/config.ts';
import { openPglite } from '#server/db/pglite.ts';
import { resolveKeys } from '#server/keys.ts';
import { ensureWebBuild } from '#server/web-build.ts';
import { ensureServerBuild } from '../scripts/server-build.mjs';
import { scratchPostgres, startProcess } from './support.ts';

const which = process.argv[2] ?? 'both';
const seconds = Number(process.argv[3] ?? 15);
const COMMENTS = 40_000;
const READERS = 20;
const ATTACKERS = 4;
const ANON_LIMIT_MS = 3000;

const WORST_SEARCH = '/rest/v1/product_comments?select=id&content=fts.zzz%20%26%20!qqq&limit=1';
const CONFIGS = ['simple', 'german', 'french', 'spanish', 'italian', 'dutch', 'swedish', 'russian'];
const UNINDEXABLE_SEARCH = `/rest/v1/product_comments?select=id&limit=1&or=(${CONFIGS.map(
  (config) => `content.fts(${config}).zzz`,
).join(',')})`;

const SEED_SQL = `
insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000b1', 'bench-commenter@example.com')
  on conflict do nothing;
-- A bulk load: per-member write quotas are not what this bench measures.
set session_replication_role = replica;
insert into public.product_comments (user_id, product_id, content)
select '00000000-0000-4000-8000-0000000000b1', 'product-' || (g % 500),
  concat_ws(' ', 'Comment', g, 'smooth', md5(g::text), 'gas', md5((g * 7)::text), 'pass would buy again',
    md5((g * 13)::text), 'citrus pine kush haze notes, burns even and the high lasts')
from generate_series(1, ${COMMENTS}) g;
set session_replication_role = origin;
analyze public.product_comments;
`;

interface Target {
  name: string;
  env: Record<string, string>;
  seed(): Promise<void>;
  cleanup(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-stall-'));
  return {
    name: 'PGlite',
    env: { DATA_DIR: dataDir },
    async seed() {
      const db = await openPglite({ dataDir });
      try {
        await db.exec(SEED_SQL);
      } finally {
        await db.close();
      }
    },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresTarget(): Promise<Target> {
  const database = await scratchPostgres();
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-stall-'));
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    async seed() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(SEED_SQL);
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

interface Outcome {
  ms: number;
  status: number;
  code: string | undefined;
}

async function get(url: string, apikey: string, from: string): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(url, { headers: { apikey, 'x-forwarded-for': from } });
  const text = await response.text();
  let code: string | undefined;
  if (response.status >= 400) {
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      code = undefined;
    }
  }
  return { ms: performance.now() - started, status: response.status, code };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

const tally = (outcomes: Outcome[]) => {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const key = outcome.code ? `${outcome.status} ${outcome.code}` : String(outcome.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${count}× ${key}`).join(', ');
};

/** Runs readers (and attackers, if any) for `seconds`; returns what each side got. */
async function phase(
  base: string,
  apikey: string,
  ids: string[],
  attack: { path: string; addresses: number } | undefined,
  duration = seconds,
) {
  const stop = performance.now() + duration * 1000;
  const reads: Outcome[] = [];
  const attacks: Outcome[] = [];
  const reader = async (index: number) => {
    while (performance.now() < stop) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      reads.push(
        await get(
          `${base}/rest/v1/product_comments?select=id,content&id=eq.${id}`,
          apikey,
          `10.1.0.${index + 1}`,
        ),
      );
    }
  };
  const attacker = async (index: number) => {
    if (!attack) return;
    while (performance.now() < stop) {
      attacks.push(await get(`${base}${attack.path}`, apikey, `10.66.0.${(index % attack.addresses) + 1}`));
    }
  };
  await Promise.all([
    ...Array.from({ length: READERS }, (_, index) => reader(index)),
    ...Array.from({ length: ATTACKERS }, (_, index) => attacker(index)),
  ]);
  return { reads, attacks };
}

async function run(target: Target) {
  // First start migrates; the comments are seeded with the server stopped (PGlite has one owner).
  const first = await startProcess(target.env);
  await first.stop();
  const seeding = performance.now();
  await target.seed();
  console.log(`${target.name}: ${COMMENTS} comments seeded in ${Math.round(performance.now() - seeding)} ms`);

  const env = {
    ...target.env,
    TRUST_PROXY: 'true',
    ANON_STATEMENT_TIMEOUT_MS: String(ANON_LIMIT_MS),
    LOG_LEVEL: 'warn',
  };
  // PGlite's driver logs when it ended a statement, measured from when the statement was sent.
  const endedByServer: number[] = [];
  const server = await startProcess(env, (line) => {
    try {
      const entry = JSON.parse(line) as { endedMs?: number };
      if (typeof entry.endedMs === 'number') endedByServer.push(entry.endedMs);
    } catch {
      // not a log line of interest
    }
  });
  try {
    const { anonKey, serviceRoleKey } = await resolveKeys(loadConfig(env));
    const list = await fetch(`${server.url}/rest/v1/product_comments?select=id&limit=1000`, {
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
    });
    const ids = ((await list.json()) as { id: string }[]).map((row) => row.id);
    if (ids.length === 0) throw new Error('no comments to read');

    // Warm-up, not reported.
    await phase(server.url, anonKey, ids, undefined, 3);
    const alone: string[] = [];
    for (const path of [WORST_SEARCH, WORST_SEARCH, WORST_SEARCH]) {
      const outcome = await get(`${server.url}${path}`, anonKey, '10.99.0.1');
      alone.push(`${outcome.status} in ${Math.round(outcome.ms)} ms`);
    }
    console.log(`${target.name}: the worst search alone: ${alone.join(', ')}`);

    const phases = [
      { name: 'no attack', attack: undefined },
      { name: 'worst search (fts.zzz & !qqq), 1 address', attack: { path: WORST_SEARCH, addresses: 1 } },
      { name: 'unindexable search, 1 address', attack: { path: UNINDEXABLE_SEARCH, addresses: 1 } },
      { name: 'unindexable search, 4 addresses', attack: { path: UNINDEXABLE_SEARCH, addresses: 4 } },
    ];
    const rows: Record<string, string | number>[] = [];
    let baselineP99 = Number.NaN;
    for (const { name, attack } of phases) {
      endedByServer.length = 0;
      const { reads, attacks } = await phase(server.url, anonKey, ids, attack);
      const readMs = reads.map((read) => read.ms);
      const p99 = percentile(readMs, 99);
      if (attack === undefined) baselineP99 = p99;
      // The client sees a statement end after it also waited for the connection; on PGlite the
      // server's own figure (from the statement's start) is the one to hold against the limit.
      const ended = attacks.filter((outcome) => outcome.code === '57014').map((outcome) => outcome.ms);
      const summary = (values: number[]) =>
        values.length ? `${Math.round(percentile(values, 50))} / ${Math.round(Math.max(...values))}` : '-';
      rows.push({
        phase: name,
        'reads/s': Math.round(reads.length / seconds),
        'read p50 ms': Math.round(percentile(readMs, 50)),
        'read p99 ms': Math.round(p99),
        'p99 × baseline': attack ? Math.round((p99 / baselineP99) * 10) / 10 : 1,
        'reads answered': tally(reads),
        attacks: attack ? tally(attacks) : '-',
        'timed out, seen by client: p50 / max ms': summary(ended),
        'ended by the server after: p50 / max ms': summary([...endedByServer]),
      });
    }
    console.log(
      `\n${target.name}: ${READERS} readers by primary key, ${ATTACKERS} attackers, ${seconds} s per phase ` +
        `(load average ${loadavg()[0]?.toFixed(2)})`,
    );
    console.table(rows);
  } finally {
    await server.stop();
  }
}

await ensureServerBuild(console.log);
await ensureWebBuild(console.log);
const targets: (() => Promise<Target>)[] = [];
if (which === 'pglite' || which === 'both') targets.push(pgliteTarget);
if (which === 'postgres' || which === 'both') targets.push(postgresTarget);
for (const make of targets) {
  const target = await make();
  try {
    await run(target);
  } finally {
    await target.cleanup();
  }
}
