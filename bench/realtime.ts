/**
 * Realtime figures (printed, never asserted):
 *  1. own rows: 500 subscribers, each a different user watching `notifications` with its own
 *     `user_id=eq.<me>` filter (RLS: "read own or as admin"); rows are written round-robin for them;
 *  2. fan-out: 500 subscribers, each a different user, watching `admin_posts` (published for this
 *     bench only; RLS: "anyone reads published, admins all"), so every published post is delivered
 *     500 times — a live feed;
 *  3. own rows, private topic: the same 500 users and rows, but each subscriber joins its private
 *     channel `user:<me>` (Realtime Authorization: the product's SELECT policy on realtime.messages)
 *     and receives each notification as the broadcast its trigger sends (decision 147) — the same
 *     delivery measured the other way;
 *  4. idle: 1,000 websocket connections, each joined to a channel: server memory per connection.
 * Every notification written is both captured for postgres_changes and broadcast on its recipient's
 * topic (the product does both), whichever way the subscribers listen.
 * For 1 to 3: delivered messages per second and commit-to-receive latency (from the moment the
 * writer's COMMIT returned to the moment the subscriber's callback ran), at increasing write rates.
 *
 * Run: npx tsx bench/realtime.ts [postgres|pglite|both] [seconds=10]
 * (SCENARIOS=own,private,fanout picks scenarios; OWN_RATES, PRIVATE_RATES, FANOUT_RATES the rates;
 * SKIP_IDLE=1 skips 4; NOTIFICATION_BROADCAST=off disables the notifications' broadcast trigger in the
 * scratch database, to see what it costs the postgres_changes scenario.)
 * PostgreSQL needs BENCH_PG_URL or TEST_PG_URL (a server to create a scratch database on). The
 * server runs as its own process there; on PGlite (one process owns the database) it runs inside the
 * bench process, which then also carries the writer and the 500 clients on the server's thread.
 * REALTIME_PGLITE_OWN_PROCESS=1 runs the PGlite server as its own process instead, as in production,
 * where the subscribers are browsers elsewhere: the bench's writer sends its statements there over an
 * IPC channel (bench/realtime-server.ts) and takes the moment each returned there as its commit.
 * REALTIME_SERVER_PROFILE=<dir> writes V8 CPU profiles of the server process's threads there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealtimeClient } from '@supabase/realtime-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { PROJECT_ROOT, WEB_DIST } from '#server/web-build.ts';

const SUBSCRIBERS = 500;
const IDLE_CONNECTIONS = 1000;
const SECRET = `bench-${randomBytes(24).toString('hex')}`;
const which = process.argv[2] ?? 'both';
const seconds = Number(process.argv[3] ?? 10);
const adminUrl = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL;
const SERVER_ENV = {
  LOG_LEVEL: 'warn',
  JWT_SECRET: SECRET,
  REALTIME_MAX_CONNECTIONS: '5000',
  REALTIME_MAX_EVENTS_PER_SECOND: '1000',
};

/** `committedAt`, where the statement ran in another process: when it returned there, on this process's `performance.now()` clock. */
type Query = (
  sql: string,
  params?: unknown[],
) => Promise<{ rows: Record<string, unknown>[]; committedAt?: number }>;

interface Target {
  name: string;
  url: string;
  query: Query;
  pid: number | undefined;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sign(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(SECRET));
}

function spawnServer(
  env: Record<string, string>,
  ipc = false,
): Promise<{ child: ChildProcess; url: string }> {
  // REALTIME_SERVER_PROFILE=<dir>: V8 CPU profiles of the server process's threads, written as it stops.
  const profile = process.env.REALTIME_SERVER_PROFILE;
  const node = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(
    process.execPath,
    [...node, '--import', 'tsx', join(PROJECT_ROOT, 'bench/realtime-server.ts')],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...SERVER_ENV, ...env },
      stdio: ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
      ...(ipc ? { serialization: 'advanced' as const } : {}),
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function postgresTarget(): Promise<Target> {
  if (!adminUrl) throw new Error('BENCH_PG_URL or TEST_PG_URL must name a PostgreSQL server');
  const name = `hg_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
  const { child, url: serverUrl } = await spawnServer({ DATABASE_URL: url.toString(), DATA_DIR: dataDir });
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  return {
    name: 'PostgreSQL',
    url: serverUrl,
    query: (sql, params) => pool.query(sql, params),
    pid: child.pid,
    async stop() {
      await pool.end();
      await stopChild(child);
      await rm(dataDir, { recursive: true, force: true });
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

/** The bench's statements run by the server process that owns the embedded database (IPC). */
function queriesThrough(child: ChildProcess): Query {
  let next = 0;
  const waiting = new Map<
    number,
    { resolve: (value: Awaited<ReturnType<Query>>) => void; reject: (error: Error) => void }
  >();
  child.on(
    'message',
    (answer: { id: number; rows?: Record<string, unknown>[]; committedAt?: number; error?: string }) => {
      const asked = waiting.get(answer.id);
      if (!asked) return;
      waiting.delete(answer.id);
      if (answer.error !== undefined) asked.reject(new Error(answer.error));
      else
        asked.resolve({
          rows: answer.rows ?? [],
          committedAt: (answer.committedAt as number) - performance.timeOrigin,
        });
    },
  );
  // A server that stopped answers nothing more: whatever waits is refused, and so is what comes after.
  child.once('exit', (code) => {
    for (const asked of waiting.values()) asked.reject(new Error(`the server exited (${code})`));
    waiting.clear();
  });
  return (sql, params) =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || !child.connected) {
        reject(new Error('the server has exited'));
        return;
      }
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ id, sql, params });
    });
}

async function pgliteTarget(where: 'own process' | 'in process'): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
  if (where === 'own process') {
    const { child, url } = await spawnServer({ DATA_DIR: dataDir }, true);
    return {
      name: 'PGlite',
      url,
      query: queriesThrough(child),
      pid: child.pid,
      async stop() {
        await stopChild(child);
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const server = await startServer(
    loadConfig({
      ...SERVER_ENV,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG ?? 'silent',
    }),
    { logger: Boolean(process.env.BENCH_LOG), webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST },
  );
  return {
    name: 'PGlite (server in the bench process)',
    url: server.url,
    query: (sql, params) => server.ctx.db.query(sql, params),
    pid: undefined,
    async stop() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function createUsers(query: Query, count: number, admin: boolean): Promise<string[]> {
  const tag = randomBytes(4).toString('hex');
  const { rows } = await query(
    `insert into auth.users (email) select 'bench-${tag}-' || g || '@example.com' from generate_series(1, $1) g returning id`,
    [count],
  );
  const ids = rows.map((row) => row.id as string);
  if (admin)
    await query(`insert into public.user_roles (user_id, role) select unnest($1::uuid[]), 'admin'`, [ids]);
  return ids;
}

interface Stats {
  received: number;
  latencies: number[];
  firstCommit: number;
  lastReceive: number;
}

/** One realtime-js client per user (its own websocket), subscribed; calls `onRow` with each title. */
async function subscribe(
  target: Target,
  anonKey: string,
  users: string[],
  table: 'notifications' | 'admin_posts',
  onRow: (title: string) => void,
  privateTopic = false,
): Promise<RealtimeClient[]> {
  const clients: RealtimeClient[] = [];
  const pending: Promise<void>[] = [];
  for (const user of users) {
    const client = new RealtimeClient(`${target.url.replace(/^http/, 'ws')}/realtime/v1`, {
      params: { apikey: anonKey },
      transport: WebSocket as never,
      timeout: 60_000,
    });
    await client.setAuth(await sign({ sub: user, role: 'authenticated' }));
    const channel = privateTopic
      ? client
          .channel(`user:${user}`, { config: { private: true } })
          .on('broadcast', { event: 'INSERT' }, (message: { payload: { record: { title: string } } }) =>
            onRow(message.payload.record.title),
          )
      : client.channel(`feed-${user}`).on(
          'postgres_changes' as never,
          {
            event: 'INSERT',
            schema: 'public',
            table,
            ...(table === 'notifications' ? { filter: `user_id=eq.${user}` } : {}),
          } as never,
          (payload: { new: { title: string } }) => onRow(payload.new.title),
        );
    pending.push(
      new Promise<void>((resolve, reject) =>
        channel.subscribe((status) => {
          if (status === 'SUBSCRIBED') resolve();
          else if (status !== 'CLOSED') reject(new Error(`subscribe: ${status}`));
        }),
      ),
    );
    clients.push(client);
    if (pending.length % 50 === 0) await Promise.all(pending.slice(-50));
  }
  await Promise.all(pending);
  return clients;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Writes `rowsPerSecond` notifications for `durationMs` (multi-row INSERTs, paced), then waits for
 * the deliveries to drain; `recipients` is how many subscribers each row should reach.
 */
async function drive(
  target: Target,
  table: 'notifications' | 'admin_posts',
  users: string[],
  rowsPerSecond: number,
  durationMs: number,
  recipients: number,
  commits: Map<string, number>,
  stats: Stats,
): Promise<{ rows: number; expected: number }> {
  let sent = 0;
  let next = 0;
  const started = performance.now();
  stats.firstCommit = Number.POSITIVE_INFINITY;
  for (;;) {
    const elapsed = performance.now() - started;
    if (elapsed >= durationMs) break;
    const due = Math.floor((rowsPerSecond * elapsed) / 1000) - sent;
    if (due <= 0) {
      await sleep(2);
      continue;
    }
    const batch = Math.min(due, 500);
    const owners: string[] = [];
    const titles: string[] = [];
    for (let i = 0; i < batch; i++) {
      owners.push(users[next % users.length] as string);
      titles.push(`b:${randomBytes(6).toString('hex')}:${next}`);
      next++;
    }
    let written: Awaited<ReturnType<Query>>;
    if (table === 'notifications') {
      written = await target.query(
        `insert into public.notifications (user_id, title, message)
         select u, t, 'bench' from unnest($1::uuid[], $2::text[]) as x(u, t)`,
        [owners, titles],
      );
    } else {
      written = await target.query(
        `insert into public.admin_posts (author_id, title, content)
         select $1, t, 'bench' from unnest($2::text[]) as t`,
        [users[0], titles],
      );
    }
    const committed = written.committedAt ?? performance.now();
    stats.firstCommit = Math.min(stats.firstCommit, committed);
    for (const title of titles) commits.set(title, committed);
    sent += batch;
    // On PGlite the write resolves without passing through the event loop's I/O phase; a writer that
    // never yields there would hold back every socket of the process (server and clients) until it
    // stops writing.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const expected = sent * recipients;
  let last = stats.received;
  let quietSince = performance.now();
  while (stats.received < expected && performance.now() - quietSince < 15_000) {
    await sleep(50);
    if (stats.received !== last) {
      last = stats.received;
      quietSince = performance.now();
    }
  }
  return { rows: sent, expected };
}

type Scenario = 'own rows' | 'own rows, private user:<id>' | 'fan-out';

async function throughput(target: Target, scenario: Scenario, rates: number[]) {
  const anonKey = await sign({ role: 'anon', iss: 'supabase' });
  // The product publishes only notifications; the bench's scratch database publishes posts too.
  await target.query(
    `do $$ begin
       if not exists (select 1 from pg_publication_tables where pubname = 'supabase_realtime' and tablename = 'admin_posts')
       then alter publication supabase_realtime add table public.admin_posts; end if;
     end $$`,
  );
  await target.query('select realtime.sync_publication_triggers()');
  if (process.env.NOTIFICATION_BROADCAST === 'off') {
    await target.query('alter table public.notifications disable trigger broadcast_notification');
  }
  const users = await createUsers(target.query, SUBSCRIBERS, false);
  const [author] = await createUsers(target.query, 1, true);
  const commits = new Map<string, number>();
  const stats: Stats = { received: 0, latencies: [], firstCommit: 0, lastReceive: 0 };
  const early: string[] = [];
  const own = scenario !== 'fan-out';
  const table = own ? 'notifications' : 'admin_posts';
  const clients = await subscribe(
    target,
    anonKey,
    users,
    table,
    (title) => {
      const now = performance.now();
      stats.received++;
      stats.lastReceive = now;
      const committed = commits.get(title);
      if (committed === undefined) early.push(title);
      else stats.latencies.push(Math.max(0, now - committed));
    },
    scenario === 'own rows, private user:<id>',
  );
  const results = [];
  try {
    for (const rate of rates) {
      stats.received = 0;
      stats.latencies = [];
      const { rows, expected } = await drive(
        target,
        table,
        own ? users : [author as string],
        rate,
        seconds * 1000,
        own ? 1 : SUBSCRIBERS,
        commits,
        stats,
      );
      // A delivery can overtake the writer's own "COMMIT done": count it as instantaneous.
      for (const _ of early.splice(0)) stats.latencies.push(0);
      const sorted = stats.latencies.sort((x, y) => x - y);
      const span = (stats.lastReceive - stats.firstCommit) / 1000;
      results.push({
        database: target.name,
        scenario,
        'rows/s written': Math.round(rows / seconds),
        'msgs/s target': rate * (own ? 1 : SUBSCRIBERS),
        'msgs/s delivered': Math.round(stats.received / span),
        delivered: `${stats.received}/${expected}`,
        'p50 ms': Math.round(percentile(sorted, 50)),
        'p95 ms': Math.round(percentile(sorted, 95)),
        'p99 ms': Math.round(percentile(sorted, 99)),
      });
      commits.clear();
      // TRUNCATE fires no row triggers, so clearing up adds nothing to the next rate's stream.
      await target.query(`truncate public.${table}`);
      await sleep(1000);
    }
  } finally {
    await Promise.all(clients.map((client) => client.disconnect()));
    const everyone = [...users, author];
    await target.query('delete from public.user_roles where user_id = any ($1::uuid[])', [everyone]);
    await target.query('delete from auth.users where id = any ($1::uuid[])', [everyone]);
  }
  return results;
}

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function idle(target: Target) {
  if (target.pid === undefined) throw new Error('idle needs the server in its own process');
  const anonKey = await sign({ role: 'anon', iss: 'supabase' });
  await sleep(3000);
  const before = await rssKb(target.pid);
  const sockets: WebSocket[] = [];
  const url = `${target.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`;
  for (let i = 0; i < IDLE_CONNECTIONS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, IDLE_CONNECTIONS - i) }, async (_, j) => {
        const ws = new WebSocket(url);
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
        await new Promise<void>((resolve) => {
          ws.on('message', (data) => {
            const [, ref, , event] = JSON.parse(String(data)) as unknown[];
            if (ref === '1' && event === 'phx_reply') resolve();
          });
          ws.send(JSON.stringify(['1', '1', `realtime:idle-${i + j}`, 'phx_join', { config: {} }]));
        });
        sockets.push(ws);
      }),
    );
  }
  await sleep(5000);
  const after = await rssKb(target.pid);
  for (const ws of sockets) ws.close();
  return {
    database: target.name,
    connections: sockets.length,
    'server RSS before (MB)': Math.round(before / 1024),
    'server RSS with them (MB)': Math.round(after / 1024),
    'KB per connection': Math.round(((after - before) / sockets.length) * 10) / 10,
  };
}

const OWN_RATES = (process.env.OWN_RATES ?? '1000,3000,5000').split(',').map(Number);
const PRIVATE_RATES = (process.env.PRIVATE_RATES ?? '1000,3000,5000').split(',').map(Number);
const FANOUT_RATES = (process.env.FANOUT_RATES ?? '6,10,20').split(',').map(Number);
const SCENARIOS = (process.env.SCENARIOS ?? 'own,private,fanout').split(',');

const throughputRows: object[] = [];
const idleRows: object[] = [];
for (const database of which === 'both' ? ['postgres', 'pglite'] : [which]) {
  const target =
    database === 'postgres'
      ? await postgresTarget()
      : await pgliteTarget(process.env.REALTIME_PGLITE_OWN_PROCESS ? 'own process' : 'in process');
  try {
    if (SCENARIOS.includes('own')) throughputRows.push(...(await throughput(target, 'own rows', OWN_RATES)));
    if (SCENARIOS.includes('private'))
      throughputRows.push(...(await throughput(target, 'own rows, private user:<id>', PRIVATE_RATES)));
    if (SCENARIOS.includes('fanout'))
      throughputRows.push(...(await throughput(target, 'fan-out', FANOUT_RATES)));
  } finally {
    await target.stop();
  }
  if (process.env.SKIP_IDLE) continue;
  // Memory is measured on a fresh server process of its own.
  const fresh = database === 'postgres' ? await postgresTarget() : await pgliteTarget('own process');
  try {
    idleRows.push(await idle(fresh));
  } finally {
    await fresh.stop();
  }
}

console.log(`\nrealtime: ${SUBSCRIBERS} subscribers, each its own user and websocket, ${seconds} s per rate`);
console.table(throughputRows);
console.log(`\nrealtime: ${IDLE_CONNECTIONS} idle connections (each joined to a channel)`);
console.table(idleRows);
process.exit(0);
