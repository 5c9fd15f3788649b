import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import autocannon from 'autocannon';
import pg from 'pg';
import WebSocket from 'ws';
import { PROJECT_ROOT } from '#server/web-build.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts what `npm start` starts (scripts/start.mjs) as its own process; resolves once /health answers 200. */
export async function startProcess(env: Record<string, string>, onLog?: (line: string) => void) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', onLog ? 'pipe' : 'ignore', 'inherit'],
  });
  if (onLog && child.stdout) {
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLog(line);
    });
  }
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    readyMs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  throughputMBps: number;
  errors: number;
  non2xx: number;
}

export async function load(
  name: string,
  options: {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    method?: string;
    body?: string;
  },
): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    method: (options.method ?? 'GET') as 'GET',
    body: options.body,
    connections: options.connections ?? 20,
    duration: options.duration ?? 10,
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    throughputMBps: Math.round((result.throughput.average / 1024 / 1024) * 10) / 10,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * A new member with a confirmed address, signed in through /auth/v1 as the web app signs in: the
 * member's id and access token.
 */
export async function signedInMember(
  server: { url: string; anonKey: string; serviceRoleKey: string },
  email: string,
): Promise<{ id: string; token: string }> {
  const options = { auth: { persistSession: false }, realtime: { transport: WebSocket as never } };
  const password = 'bench password 1';
  const created = await createClient(server.url, server.serviceRoleKey, options).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const signed = await createClient(server.url, server.anonKey, options).auth.signInWithPassword({
    email,
    password,
  });
  if (signed.error || !signed.data.session) throw signed.error ?? new Error('no session');
  return { id: signed.data.user.id, token: signed.data.session.access_token };
}

export function table(rows: object[]): void {
  console.table(rows);
}

/** A new database on the BENCH_PG_URL (or TEST_PG_URL) server, and a function dropping it. */
export async function scratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL;
  if (!admin) throw new Error('postgres needs BENCH_PG_URL or TEST_PG_URL');
  const name = `hg_bench_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  // BENCH_KEEP_DB=1 keeps the database for a look at its plans afterwards (dropped by hand).
  const keep = process.env.BENCH_KEEP_DB === '1';
  return {
    url: url.toString(),
    drop: async () => {
      if (keep) console.log(`kept database ${url.toString()}`);
      else await run(`drop database if exists ${name} with (force)`);
    },
  };
}
