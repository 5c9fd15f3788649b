/**
 * GET by primary key through /rest/v1 against a bare Fastify route in the same process that runs the
 * same SQL the same way: same driver, same scope statement, same read-only transaction, same global
 * hooks (security headers, compression) and CORS. The difference is the data API's own work:
 * parsing the request, planning it against the schema cache, building the SQL, shaping the answer.
 *
 *   npx tsx bench/rest.ts [pglite|postgres] [seconds per run] [rounds]
 *
 * REST_PROFILE=<prefix> also writes a CPU profile of the server's thread over each variant's last run;
 * REST_BARE_ACCOUNT_CHECK=1 has the bare route check a signed-in caller's account as the data API does.
 *
 * Each variant runs first at full speed, then at one fixed rate (half the slowest's), where the CPU per
 * request is also given net of what the process spends idle (its timers and jobs). It also times the
 * data API's own steps in-process (parse, plan, statement, answer) without HTTP or a database.
 *
 * `postgres` needs BENCH_PG_URL or TEST_PG_URL (a server to create a scratch database on);
 * HIGHGRADE_WEB_DIR may name a built web app to serve. The load generator (autocannon) runs as its
 * own process so it does not share the server's event loop.
 *
 * Besides req/s and latency it prints the CPU time this process spends per request: on a machine
 * shared with other work req/s swings from run to run, while CPU per request (what bounds the
 * throughput of a single-threaded server) barely moves.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { buildApp, createFastify } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { AppContext } from '#server/context.ts';
import { migrate } from '#server/db/migrate.ts';
import { registerApiCors } from '#server/http/cors.ts';
import { JwtVerifier } from '#server/http/jwt.ts';
import { authenticate, scopeFor } from '#server/http/request-auth.ts';
import { resolveKeys } from '#server/keys.ts';
import { planRequest } from '#server/rest/plan.ts';
import { Params, readStatement } from '#server/rest/query.ts';
import { parseApiRequest } from '#server/rest/request.ts';
import { buildResponse } from '#server/rest/response.ts';
import { loadSchemaCache, reloadSchemaCache } from '#server/rest/schema-cache.ts';
import { openDatabase } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import { scratchPostgres } from './support.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const seconds = Number(process.argv[3] ?? 10);
/** Runs of each variant, interleaved so drifting background load hits both alike; the median counts. */
const ROUNDS = Number(process.argv[4] ?? 3);
const CONNECTIONS = 10;
const OWNER = '00000000-0000-4000-8000-0000000000aa';
const ID = 4242;

// The signed-in user exists: the data API refuses a token whose account is gone (decision 097).
const FIXTURE = `
insert into auth.users (id, email, aud, role) values ('${OWNER}', 'owner@bench.example', 'authenticated', 'authenticated');
create table public.bench_items (
  id int primary key,
  owner uuid not null,
  name text not null,
  price numeric(10,2) not null,
  public boolean not null,
  created_at timestamptz not null default '2024-01-01T00:00:00Z'
);
insert into public.bench_items (id, owner, name, price, public)
  select i, case when i % 2 = 0 then '${OWNER}'::uuid else gen_random_uuid() end, 'item ' || i, i / 100.0, i % 3 = 0
  from generate_series(1, 10000) i;
alter table public.bench_items enable row level security;
create policy bench_anon on public.bench_items for select to anon using (public);
create policy bench_owner on public.bench_items for select to authenticated using (owner = (select auth.uid()));
analyze public.bench_items;
`;

interface Result {
  name: string;
  rps: number;
  /** CPU time this process (server and, on PGlite, the database) spent per request answered. */
  cpuPerRequest: number;
  /** Requests answered, and the process's CPU time over the run in µs. */
  requests: number;
  cpu: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function autocannon(
  name: string,
  url: string,
  headers: Record<string, string>,
  duration: number,
  rate?: number,
): Promise<Result> {
  const args = [
    join(process.cwd(), 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(duration),
  ];
  if (rate !== undefined) args.push('-R', String(rate));
  for (const [key, value] of Object.entries(headers)) args.push('-H', `${key}=${value}`);
  args.push(url);
  const cpu = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', () => {
      try {
        const used = process.cpuUsage(cpu);
        const json = JSON.parse(out) as {
          requests: { average: number; total: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        };
        resolve({
          name,
          rps: json.requests.average,
          cpuPerRequest: (used.user + used.system) / Math.max(1, json.requests.total),
          requests: json.requests.total,
          cpu: used.user + used.system,
          p50: json.latency.p50,
          p99: json.latency.p99,
          non2xx: json.non2xx,
          errors: json.errors,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
  const scratch = tier === 'postgres' ? await scratchPostgres() : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const app = createFastify({ config }, false);
  const db = await openDatabase(config, app.log);
  try {
    await migrate(db);
    await db.exec(FIXTURE);
    const keys = await resolveKeys(config);
    const ctx: AppContext = { config, db, keys, jwt: new JwtVerifier(keys.jwtSecret), log: app.log };

    // The statement the data API runs for GET /bench_items?select=*&id=eq.<id>, with the id a parameter.
    const cache = await loadSchemaCache(db);
    const planned = planRequest(
      { cache, maxRows: config.restMaxRows },
      parseApiRequest({
        method: 'GET',
        route: 'relation',
        name: 'bench_items',
        query: `select=*&id=eq.${ID}`,
        headers: {},
        body: undefined,
      }),
    );
    if (planned.plan.kind !== 'read') throw new Error('expected a read plan');
    const params = new Params();
    const sql = readStatement(params, planned.plan.read, {
      media: planned.media,
      head: false,
      count: undefined,
    });
    const idIndex = params.values.indexOf(String(ID));

    // The data API's own work for this request with no HTTP and no database: parse, plan, build the
    // statement, shape the answer (what the bare route skips), timed in-process over many iterations.
    const pipeline = (iterations: number): number => {
      const body = `[{"id":${ID}}]`;
      const started = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) {
        const request = planRequest(
          { cache, maxRows: config.restMaxRows, aggregates: config.restAggregates },
          parseApiRequest(
            {
              method: 'GET',
              route: 'relation',
              name: 'bench_items',
              query: `select=*&id=eq.${ID + (i % 100)}`,
              headers: { apikey: 'x', accept: '*/*' },
              body: undefined,
            },
            { plans: config.restPlans, schemas: config.restSchemas },
          ),
        );
        if (request.plan.kind !== 'read') throw new Error('expected a read plan');
        readStatement(new Params(), request.plan.read, {
          media: request.media,
          head: false,
          count: undefined,
        });
        buildResponse(request, { pageTotal: 1, body }, 'GET');
      }
      return Number(process.hrtime.bigint() - started) / 1000 / iterations;
    };
    pipeline(20_000); // warm-up: the optimizing compiler has seen it
    const pipelineMicros = pipeline(50_000);

    await buildApp(app, ctx, process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST);
    // Registered after the app, so the bare route gets the same global hooks (security headers,
    // compression) and, under its own prefix, the same CORS registration as a service mount.
    await app.register(
      async (bare) => {
        await registerApiCors(bare);
        bare.get('/bench_items/:id', async (request, reply) => {
          const auth = await authenticate(request, ctx.jwt);
          if (!auth.ok) return reply.status(401).send({ message: auth.failure.message });
          const values = [...params.values];
          values[idIndex] = (request.params as { id: string }).id;
          // REST_BARE_ACCOUNT_CHECK=1: the bare route checks a signed-in caller's account too, as the
          // data API does (decision 097), to show that check's share of the difference.
          const accountCheck =
            process.env.REST_BARE_ACCOUNT_CHECK === '1' && auth.auth.role === 'authenticated';
          const scope = {
            ...scopeFor(request, auth.auth),
            readOnly: true,
            ...(accountCheck ? { requireAccount: true } : {}),
          };
          const row = await db.withScope(
            scope,
            async (tx) => (await tx.query<{ page_total: string; body: string }>(sql, values)).rows[0],
          );
          const rows = Number(row?.page_total ?? 0);
          return reply
            .header('content-range', rows > 0 ? `0-${rows - 1}/*` : '*/*')
            .type('application/json; charset=utf-8')
            .send(row?.body ?? '[]');
        });
      },
      { prefix: '/bare' },
    );
    await reloadSchemaCache(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const userToken = await new SignJWT({ role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(OWNER)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(new TextEncoder().encode(keys.jwtSecret));
    const anon = { apikey: keys.anonKey };
    const user = { apikey: keys.anonKey, authorization: `Bearer ${userToken}` };
    const anonId = 4242 - (4242 % 3); // a public row, visible to anon
    const rest = (id: number) => `${base}/rest/v1/bench_items?select=*&id=eq.${id}`;
    const bare = (id: number) => `${base}/bare/bench_items/${id}`;

    // same answers first
    for (const [headers, id] of [
      [anon, anonId],
      [user, ID],
    ] as const) {
      const [a, b] = await Promise.all([fetch(rest(id), { headers }), fetch(bare(id), { headers })]);
      const [ta, tb] = [await a.text(), await b.text()];
      if (a.status !== 200 || ta !== tb || ta === '[]') throw new Error(`answers differ: ${ta} vs ${tb}`);
    }

    const runs: [string, string, Record<string, string>][] = [
      ['rest  anon', rest(anonId), anon],
      ['bare  anon', bare(anonId), anon],
      ['rest  authenticated (RLS)', rest(ID), user],
      ['bare  authenticated (RLS)', bare(ID), user],
    ];
    for (const [, url, headers] of runs) await autocannon('warm-up', url, headers, 2);
    const samples = new Map<string, Result[]>();
    const atRate = new Map<string, Result[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, url, headers] of runs) {
        const list = samples.get(name) ?? [];
        // REST_PROFILE=<prefix>: a CPU profile of the server's thread over each variant's last run,
        // written to <prefix>-<variant>.cpuprofile (open it in Chrome's DevTools).
        const profile = process.env.REST_PROFILE && round === ROUNDS - 1 ? new Session() : undefined;
        if (profile) {
          profile.connect();
          await profile.post('Profiler.enable');
          await profile.post('Profiler.start');
        }
        list.push(await autocannon(name, url, headers, seconds));
        if (profile) {
          const { profile: taken } = await profile.post('Profiler.stop');
          const variant = name.replace(/\W+/g, '-').replace(/-+$/, '');
          await writeFile(`${process.env.REST_PROFILE}-${variant}.cpuprofile`, JSON.stringify(taken));
          profile.disconnect();
        }
        samples.set(name, list);
      }
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

    // At full speed the two routes answer at different rates, so the server's own background work (its
    // timers and jobs, the same every second) is shared by different numbers of requests. So the same
    // requests again at one fixed rate, half the slowest variant's, and that work measured idle and
    // taken off: the CPU per request that is the request's.
    const rate = Math.round(
      0.5 * Math.min(...runs.map(([name]) => median((samples.get(name) ?? []).map((r) => r.rps)))),
    );
    const idleStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const idleUsed = process.cpuUsage(idleStart);
    const idlePerSecond = (idleUsed.user + idleUsed.system) / seconds;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, url, headers] of runs) {
        const list = atRate.get(name) ?? [];
        list.push(await autocannon(name, url, headers, seconds, rate));
        atRate.set(name, list);
      }
    }
    const net = (r: Result) => (r.cpu - idlePerSecond * seconds) / Math.max(1, r.requests);

    const results = runs.map(([name]) => {
      const list = samples.get(name) ?? [];
      const byRps = [...list].sort((a, b) => a.rps - b.rps);
      return {
        ...(byRps[Math.floor(byRps.length / 2)] as Result),
        cpuPerRequest: median(list.map((r) => r.cpuPerRequest)),
        all: list.map((r) => r.rps.toFixed(0)).join(' '),
      };
    });

    const driver = tier === 'postgres' ? 'PostgreSQL (pg.Pool)' : 'PGlite (embedded)';
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(
      `\nGET by primary key, ${driver}, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved runs of ${seconds} s`,
    );
    out(
      `${'run'.padEnd(27)}${'req/s'.padStart(7)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}${'errors'.padStart(8)}   req/s of every run`,
    );
    for (const r of results) {
      out(
        `${r.name.padEnd(27)}${r.rps.toFixed(0).padStart(7)}${r.p50.toFixed(1).padStart(8)}${r.p99.toFixed(1).padStart(8)}${r.cpuPerRequest.toFixed(0).padStart(12)}${String(r.non2xx + r.errors).padStart(8)}   ${r.all}`,
      );
    }
    const [restAnon, bareAnon, restUser, bareUser] = results as [
      (typeof results)[number],
      (typeof results)[number],
      (typeof results)[number],
      (typeof results)[number],
    ];
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
    out(
      `rest/bare, anon:          req/s ${pct(restAnon.rps, bareAnon.rps)}; capacity by CPU per request ${pct(bareAnon.cpuPerRequest, restAnon.cpuPerRequest)}`,
    );
    out(
      `rest/bare, authenticated: req/s ${pct(restUser.rps, bareUser.rps)}; capacity by CPU per request ${pct(bareUser.cpuPerRequest, restUser.cpuPerRequest)}`,
    );
    // Each round runs rest and bare back to back, so their ratio within a round sees the same
    // background load; the median of those ratios drifts less than the ratio of two medians.
    const paired = (
      runsOf: Map<string, Result[]>,
      rest: string,
      bare: string,
      cpuOf: (r: Result) => number = (r) => r.cpuPerRequest,
    ) => {
      const b = runsOf.get(bare) ?? [];
      const ratios = (runsOf.get(rest) ?? []).map((run, i) => cpuOf(b[i] as Result) / cpuOf(run));
      return `${(100 * median(ratios)).toFixed(1)}% (rounds: ${ratios.map((x) => `${(100 * x).toFixed(0)}%`).join(' ')})`;
    };
    out(
      `capacity by CPU per request, median of each round's ratio: anon ${paired(samples, 'rest  anon', 'bare  anon')}`,
    );
    out(
      `                                                 authenticated ${paired(samples, 'rest  authenticated (RLS)', 'bare  authenticated (RLS)')}`,
    );
    out(
      `\nThe same at ${rate} req/s each (median of ${ROUNDS} interleaved runs of ${seconds} s); idle, this process used ${idlePerSecond.toFixed(0)} µs of CPU a second`,
    );
    out(`${'run'.padEnd(27)}${'req/s'.padStart(7)}${'CPU µs/req'.padStart(12)}${'net of idle'.padStart(13)}`);
    for (const [name] of runs) {
      const list = atRate.get(name) ?? [];
      out(
        `${name.padEnd(27)}${median(list.map((r) => r.rps))
          .toFixed(0)
          .padStart(7)}${median(list.map((r) => r.cpuPerRequest))
          .toFixed(0)
          .padStart(12)}${median(list.map(net)).toFixed(0).padStart(13)}`,
      );
    }
    out(
      `capacity by CPU per request net of idle, at ${rate} req/s, median of each round's ratio: anon ${paired(atRate, 'rest  anon', 'bare  anon', net)}`,
    );
    out(
      `${' '.repeat(73)}authenticated ${paired(atRate, 'rest  authenticated (RLS)', 'bare  authenticated (RLS)', net)}`,
    );
    out(
      `the data API's own work in-process (parse, plan, statement, answer): ${pipelineMicros.toFixed(1)} µs per request`,
    );
    out(
      `(CPU per request is this process's: server and, on PGlite, the database; load average ${loadavg()[0]?.toFixed(1)})`,
    );
  } finally {
    await app.close();
    await db.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
