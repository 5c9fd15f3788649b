/**
 * Auth service throughput on loopback (prints figures; asserts nothing):
 *   1. password grant req/s (argon2id verification each time),
 *   2. refresh_token grant req/s (rotation: every request presents the token it got last),
 *   3. GET /auth/v1/user latency (JWT verification + one database read) alone, and while password
 *      grants keep the hasher saturated.
 *
 * Run: `npx tsx bench/auth.ts` (embedded PGlite), or with DATABASE_URL=postgres://… for PostgreSQL.
 * BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 16) tune the runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PASSWORD = 'correct horse battery staple';

interface Run {
  ok: number;
  failed: number;
  seconds: number;
  latencies: number[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function figures(name: string, run: Run): string {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const rate = run.ok / run.seconds;
  return `${name.padEnd(46)} ${rate.toFixed(1).padStart(8)} req/s   p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms   (${run.ok} ok, ${run.failed} failed)`;
}

/** `workers` loops issuing `request(worker)` back to back until the time is up. */
async function load(
  workers: number,
  seconds: number,
  request: (worker: number) => Promise<boolean>,
  stop?: { stopped: boolean },
): Promise<Run> {
  const run: Run = { ok: 0, failed: 0, seconds, latencies: [] };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < deadline && !stop?.stopped) {
        const begin = performance.now();
        const ok = await request(worker).catch(() => false);
        run.latencies.push(performance.now() - begin);
        if (ok) run.ok += 1;
        else run.failed += 1;
      }
    }),
  );
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
  const unlimited = '1000000000';
  const server = await startServer(
    loadConfig({
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ENABLE_EMAIL_AUTOCONFIRM: 'true',
      RATE_LIMIT_SIGN_IN_SIGN_UPS: unlimited,
      RATE_LIMIT_TOKEN_REFRESH: unlimited,
      RATE_LIMIT_VERIFY: unlimited,
      RATE_LIMIT_OTP: unlimited,
      RATE_LIMIT_EMAIL_SENT: unlimited,
    }),
    {
      logger: false,
      webDir: process.env.HIGHGRADE_WEB_DIR || WEB_DIST,
      buildWeb: !process.env.HIGHGRADE_WEB_DIR,
    },
  );
  const base = `${server.url}/auth/v1`;
  const { anonKey } = server.ctx.keys;
  const json = { apikey: anonKey, 'content-type': 'application/json' };
  try {
    const email = `bench-${Date.now()}@example.com`;
    const signup = await fetch(`${base}/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!signup.ok) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
    const passwordGrant = async () => {
      const response = await fetch(`${base}/token?grant_type=password`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const body = (await response.json()) as { access_token?: string; refresh_token?: string };
      return { ok: response.status === 200, body };
    };

    process.stdout.write(
      `\nHighGrade auth bench — ${server.ctx.db.mode} database, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? '?'}), ` +
        `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ${CONNECTIONS} connections, ${SECONDS} s per run\n\n`,
    );

    // Warm-up (JIT, connection pool, argon2 threads).
    await load(4, 2, async () => (await passwordGrant()).ok);

    const password = await load(CONNECTIONS, SECONDS, async () => (await passwordGrant()).ok);
    process.stdout.write(`${figures('POST /token?grant_type=password', password)}\n`);

    const tokens: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1)
      tokens.push((await passwordGrant()).body.refresh_token as string);
    const refresh = await load(CONNECTIONS, SECONDS, async (worker) => {
      const response = await fetch(`${base}/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ refresh_token: tokens[worker] }),
      });
      const body = (await response.json()) as { refresh_token?: string };
      if (response.status !== 200 || !body.refresh_token) return false;
      tokens[worker] = body.refresh_token;
      return true;
    });
    process.stdout.write(`${figures('POST /token?grant_type=refresh_token', refresh)}\n`);

    const { body: session } = await passwordGrant();
    const getUser = async () => {
      const response = await fetch(`${base}/user`, {
        headers: { apikey: anonKey, authorization: `Bearer ${session.access_token}` },
      });
      await response.arrayBuffer();
      return response.status === 200;
    };
    const idle = await load(2, SECONDS, getUser);
    process.stdout.write(`${figures('GET /user (idle server)', idle)}\n`);

    const stop = { stopped: false };
    const background = load(CONNECTIONS, SECONDS + 5, async () => (await passwordGrant()).ok, stop);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const underLoad = await load(2, SECONDS, getUser);
    stop.stopped = true;
    const grants = await background;
    process.stdout.write(`${figures('GET /user while password grants saturate', underLoad)}\n`);
    process.stdout.write(`${figures('  (the concurrent password grants)', grants)}\n\n`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
