// @databases: both — two processes share one PostgreSQL database (the cluster part runs there only).
/**
 * The deployment of docs/deploy.md as an operator runs it: two server processes (started as
 * `npm start` starts them) on one PostgreSQL database and one S3 bucket (s3rver), behind haproxy and
 * behind nginx, each running the configuration file shipped in deploy/ with only its addresses
 * replaced (scripts/cluster-config.mjs, decision 221). Everything goes through supabase-js at the
 * balancer. Each client connects from a loopback address of its own (127.0.0.x), so the balancer
 * forwards a real, distinct client address and the servers, trusting only the balancer's address
 * (TRUST_PROXY), count limits per client whatever X-Forwarded-For the client sends.
 *
 * On PGlite the embedded database belongs to one process, so only the configuration files' own checks
 * run there; the PostgreSQL tier runs the cluster. haproxy and nginx come from Debian (.ci/run installs
 * them); a machine without them fails here rather than skipping.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPostgresDatabase, testDatabase } from '#tests/support/databases.ts';
import { freePort, RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { type SpawnedServer, spawnServer } from '#tests/support/spawn-server.ts';
import { startS3 } from '#tests/support/storage.ts';
import { apiKey } from '#tests/support/tokens.ts';
import { PASSWORD, uniqueEmail } from '#tests/support/users.ts';
import { haproxyConfig, nginxConfig } from '../../scripts/cluster-config.mjs';
import { closeClients, type Row, realtimeClient, subscribed, waitFor } from './realtime-support.ts';

const postgres = testDatabase() === 'postgres';
const BALANCERS = ['haproxy', 'nginx'] as const;
type Balancer = (typeof BALANCERS)[number];
const BINARIES: Record<Balancer, string> = { haproxy: '/usr/sbin/haproxy', nginx: '/usr/sbin/nginx' };
/** Sign-ins and sign-ups per client address and 5 minutes: low, so the limit test reaches it. */
const SIGN_IN_LIMIT = 5;
const METRICS_TOKEN = 'deploy-balancer-metrics-token';

function installed(balancer: Balancer): void {
  try {
    execFileSync(BINARIES[balancer], ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `${balancer} is not installed: apt-get install -y ${balancer === 'nginx' ? 'nginx-light' : balancer}`,
    );
  }
}

/** A fresh directory for a balancer's rendered configuration, pid file and logs. */
async function workDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `highgrade-${name}-`));
  // nginx's workers (another user when started as root) write temporary files here.
  await chmod(dir, 0o755);
  return dir;
}

describe('the balancer configurations in deploy/', () => {
  it.each(BALANCERS)('%s accepts its file with local addresses', async (balancer) => {
    installed(balancer);
    const dir = await workDir(balancer);
    try {
      const servers = ['127.0.0.1:3001', '127.0.0.1:3002', '127.0.0.1:3003'];
      const file = join(dir, `${balancer}.conf`);
      if (balancer === 'haproxy') {
        await writeFile(file, await haproxyConfig({ listen: '127.0.0.1:8080', servers }));
        execFileSync(BINARIES.haproxy, ['-c', '-q', '-f', file]);
      } else {
        await writeFile(file, await nginxConfig({ listen: '127.0.0.1:8080', servers, prefix: dir }));
        execFileSync(BINARIES.nginx, ['-t', '-q', '-c', file, '-p', dir]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A fetch that connects from `localAddress`, as a client at that address would (for supabase-js). */
function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpRequest(
        req.url,
        { method: req.method, headers: Object.fromEntries(req.headers), localAddress },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const item of Array.isArray(value) ? value : [value ?? '']) headers.append(name, item);
            }
            const status = incoming.statusCode ?? 500;
            const empty = [101, 204, 205, 304].includes(status) || req.method === 'HEAD';
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}

let nextAddress = 10;
/** A loopback address no other client of this file uses. */
function newAddress(): string {
  nextAddress += 1;
  return `127.0.0.${nextAddress}`;
}

interface Cluster {
  anonKey: string;
  serviceRoleKey: string;
  balancers: Record<Balancer, string>;
  processes: { name: string; direct: string; spawned: SpawnedServer }[];
  s3: Awaited<ReturnType<typeof startS3>>;
  admin: pg.Client;
  /** The database role of the second process, which the readiness test locks out. */
  secondRole: string;
}

/** A supabase-js client of the balancer, connecting from an address of its own. */
function client(cluster: Cluster, balancer: Balancer, options: { key?: string; address?: string } = {}) {
  return createClient(cluster.balancers[balancer], options.key ?? cluster.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: { fetch: fetchFrom(options.address ?? newAddress()) },
  });
}

/** Requests one process has answered so far, by service (`rest`, `auth`, `storage`…), from its /metrics. */
async function served(cluster: Cluster, index: number, service: string): Promise<number> {
  const process = cluster.processes[index];
  if (!process) throw new Error(`no process ${index}`);
  const response = await fetch(`${process.direct}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  let total = 0;
  for (const line of (await response.text()).split('\n')) {
    if (line.startsWith('highgrade_http_requests_total{') && line.includes(`service="${service}"`))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function realtimeConnections(cluster: Cluster, index: number): Promise<number> {
  const process = cluster.processes[index];
  const response = await fetch(`${process?.direct}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = (await response.text())
    .split('\n')
    .find((l) => l.startsWith('highgrade_realtime_connections '));
  return Number(line?.split(' ')[1] ?? 0);
}

/**
 * Runs `step` until both processes have answered at least one of its `service` requests, checking
 * every answer; returns how many steps it took. Round robin alternates, so this takes two or three.
 */
async function untilBothServed(cluster: Cluster, service: string, step: () => Promise<void>) {
  const before = await Promise.all([0, 1].map((index) => served(cluster, index, service)));
  for (let steps = 1; steps <= 10; steps++) {
    await step();
    const after = await Promise.all([0, 1].map((index) => served(cluster, index, service)));
    if (after.every((count, index) => count > (before[index] ?? 0))) return steps;
  }
  throw new Error(`ten ${service} requests did not reach both processes`);
}

async function signUp(cluster: Cluster, balancer: Balancer) {
  const email = uniqueEmail('deploy');
  const visitor = client(cluster, balancer);
  const { data, error } = await visitor.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  // Signing in again, on another client from another address: a session of its own.
  const member = client(cluster, balancer);
  const signedIn = await member.auth.signInWithPassword({ email, password: PASSWORD });
  expect(signedIn.error).toBeNull();
  return {
    id: data.user?.id as string,
    email,
    client: member,
    token: signedIn.data.session?.access_token as string,
  };
}

/** Starts a balancer in the foreground on `port`; resolves once a request through it is answered. */
async function startBalancer(
  balancer: Balancer,
  port: number,
  servers: string[],
): Promise<{ child: ChildProcess; dir: string; output(): string }> {
  installed(balancer);
  const dir = await workDir(balancer);
  const file = join(dir, `${balancer}.conf`);
  const listen = `127.0.0.1:${port}`;
  let args: string[];
  if (balancer === 'haproxy') {
    await writeFile(file, await haproxyConfig({ listen, servers }));
    args = ['-db', '-f', file];
  } else {
    await writeFile(file, await nginxConfig({ listen, servers, prefix: dir }));
    args = ['-c', file, '-p', dir, '-g', 'daemon off;'];
  }
  const child = spawn(BINARIES[balancer], args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${balancer} exited (${child.exitCode}):\n${output}`);
    const answer = await fetch(`http://${listen}/ready`).catch(() => undefined);
    if (answer?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`${balancer} does not answer on ${listen}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, dir, output: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe.runIf(postgres)(
  'two server processes behind a balancer, on one PostgreSQL and one S3 bucket',
  () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    let cluster: Cluster;

    beforeAll(async () => {
      const jwtSecret = randomBytes(48).toString('base64url');
      const s3 = await startS3();
      cleanup.push(() => s3.close());
      // The second process logs in as a role of its own, so the readiness test can lock it out alone.
      // The role goes last, after the database it connected to.
      const secondRole = `hg_deploy_${randomBytes(4).toString('hex')}`;
      cleanup.push(async () => {
        const owner = new pg.Client({ connectionString: process.env.TEST_PG_URL });
        await owner.connect();
        await owner.query(`drop role if exists ${secondRole}`).finally(() => owner.end());
      });
      const database = await createPostgresDatabase(process.env.HIGHGRADE_PG_TEMPLATE);
      cleanup.push(() => database.drop());
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      cleanup.push(() => admin.end());
      await admin.query(`create role ${secondRole} login superuser`);

      const [haproxyPort, nginxPort, ...ports] = await Promise.all([1, 2, 3, 4].map(() => freePort()));
      const balancers = {
        haproxy: `http://127.0.0.1:${haproxyPort}`,
        nginx: `http://127.0.0.1:${nginxPort}`,
      };
      // What every process shares (deploy/highgrade.env.example); each has its own DATA_DIR and port.
      const shared = {
        ...RELAXED_LIMITS,
        RATE_LIMIT_SIGN_IN_SIGN_UPS: String(SIGN_IN_LIMIT),
        SITE_URL: balancers.haproxy,
        JWT_SECRET: jwtSecret,
        TRUST_PROXY: '127.0.0.1',
        METRICS_TOKEN,
        ENABLE_EMAIL_AUTOCONFIRM: 'true',
        DEMO_CONTENT: 'false',
        STORAGE_BACKEND: 's3',
        STORAGE_S3_BUCKET: s3.bucket,
        STORAGE_S3_ENDPOINT: s3.endpoint,
        STORAGE_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      };
      const asSecond = new URL(database.url);
      asSecond.username = secondRole;
      const urls = [database.url, asSecond.toString()];
      const processes = await Promise.all(
        ports.map(async (port, index) => {
          const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-deploy-'));
          cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
          const spawned = spawnServer({
            ...shared,
            DATABASE_URL: urls[index] as string,
            PORT: String(port),
            DATA_DIR: dataDir,
          });
          cleanup.push(() => stopChild(spawned.child));
          await spawned.ready;
          return { name: `hg${index + 1}`, direct: `http://127.0.0.1:${port}`, spawned };
        }),
      );
      expect(urls[1]).toContain(`${secondRole}@`);
      cluster = {
        anonKey: await apiKey(jwtSecret, 'anon'),
        serviceRoleKey: await apiKey(jwtSecret, 'service_role'),
        balancers,
        processes,
        s3,
        admin,
        secondRole,
      };
      const servers = processes.map((p) => p.direct.replace('http://', ''));
      for (const [balancer, port] of [
        ['haproxy', haproxyPort],
        ['nginx', nginxPort],
      ] as const) {
        const started = await startBalancer(balancer, port as number, servers);
        cleanup.push(() => rm(started.dir, { recursive: true, force: true }));
        cleanup.push(() => stopChild(started.child));
      }
    }, 120_000);

    afterEach(closeClients);

    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => {});
    }, 60_000);

    describe.each(BALANCERS)('through %s', (balancer) => {
      it('signs members up and in; a write RLS allows, made through one process, reads back through both', async () => {
        const member = await signUp(cluster, balancer);
        const stranger = await signUp(cluster, balancer);
        const service = client(cluster, balancer, { key: cluster.serviceRoleKey });
        const sent = await service
          .from('notifications')
          .insert({ user_id: member.id, title: 'Behind the balancer', message: 'hello' })
          .select('id')
          .single();
        expect(sent.error).toBeNull();
        const id = sent.data?.id as string;

        // The stranger's update matches no row RLS lets them see; the member's own is allowed.
        const refused = await stranger.client
          .from('notifications')
          .update({ is_read: true })
          .eq('id', id)
          .select();
        expect(refused).toMatchObject({ error: null, data: [] });
        const marked = await member.client
          .from('notifications')
          .update({ is_read: true })
          .eq('id', id)
          .select('is_read');
        expect(marked).toMatchObject({ error: null, data: [{ is_read: true }] });

        await untilBothServed(cluster, 'rest', async () => {
          const read = await member.client.from('notifications').select('title, is_read').eq('id', id);
          expect(read).toMatchObject({
            error: null,
            data: [{ title: 'Behind the balancer', is_read: true }],
          });
        });
      });

      it('delivers changes written through either process to subscribers on both', async () => {
        const member = await signUp(cluster, balancer);
        const received: Row[][] = [];
        const before = await Promise.all([0, 1].map((index) => realtimeConnections(cluster, index)));
        // Sockets open until each process holds one: the balancer sends them round the processes.
        for (let sockets = 0; sockets < 8; sockets++) {
          const seen: Row[] = [];
          received.push(seen);
          const realtime = await realtimeClient(
            { url: cluster.balancers[balancer], anonKey: cluster.anonKey, serviceRoleKey: '', jwtSecret: '' },
            member.token,
          );
          const channel = realtime.channel(`notes-${sockets}`).on(
            'postgres_changes' as never,
            {
              event: '*',
              schema: 'public',
              table: 'notifications',
              filter: `user_id=eq.${member.id}`,
            } as never,
            (payload: Row) => seen.push({ type: payload.eventType, ...payload.new }),
          );
          expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED' });
          const now = await Promise.all([0, 1].map((index) => realtimeConnections(cluster, index)));
          if (now.every((count, index) => count > (before[index] ?? 0))) break;
        }
        expect(received.length).toBeGreaterThanOrEqual(2);
        expect(received.length).toBeLessThan(8);

        const service = client(cluster, balancer, { key: cluster.serviceRoleKey });
        const sent = await service
          .from('notifications')
          .insert({ user_id: member.id, title: 'Live', message: 'across processes' })
          .select('id')
          .single();
        expect(sent.error).toBeNull();
        const marked = await member.client
          .from('notifications')
          .update({ is_read: true })
          .eq('id', sent.data?.id);
        expect(marked.error).toBeNull();
        await waitFor(() => received.every((seen) => seen.length === 2), {
          timeout: 10_000,
          what: 'both changes',
        });
        for (const seen of received) {
          expect(seen).toMatchObject([
            { type: 'INSERT', title: 'Live', is_read: false },
            { type: 'UPDATE', title: 'Live', is_read: true },
          ]);
        }
      });

      it('stores a file through one process in the shared bucket and serves it through both', async () => {
        const service = client(cluster, balancer, { key: cluster.serviceRoleKey });
        const bucket = `deploy-${balancer}-${randomBytes(3).toString('hex')}`;
        expect((await service.storage.createBucket(bucket, { public: false })).error).toBeNull();
        // Larger than nginx's default body limit (1 MB): the configuration lets the server decide.
        const bytes = randomBytes(3 * 1024 * 1024);
        const uploaded = await service.storage
          .from(bucket)
          .upload('reports/big.bin', bytes, { contentType: 'application/octet-stream' });
        expect(uploaded.error).toBeNull();

        await untilBothServed(cluster, 'storage', async () => {
          const { data, error } = await service.storage.from(bucket).download('reports/big.bin');
          expect(error).toBeNull();
          expect(Buffer.from(await (data as Blob).arrayBuffer()).equals(bytes)).toBe(true);
        });

        const s3 = new S3Client({
          endpoint: cluster.s3.endpoint,
          region: 'us-east-1',
          forcePathStyle: true,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        });
        const listed = await s3.send(new ListObjectsV2Command({ Bucket: cluster.s3.bucket }));
        const sizes = (listed.Contents ?? []).map((object) => object.Size);
        expect(sizes).toContain(bytes.length);
      });

      it('counts sign-ins by the address the balancer saw, across both processes, whatever the client forwards', async () => {
        const email = uniqueEmail('limited');
        const service = client(cluster, balancer, { key: cluster.serviceRoleKey });
        const made = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
        expect(made.error).toBeNull();

        const address = newAddress();
        const statuses: number[] = [];
        for (let attempt = 0; attempt <= SIGN_IN_LIMIT; attempt++) {
          // A forged header that differs each time: the balancer appends the real address after it.
          const forging = createClient(cluster.balancers[balancer], cluster.anonKey, {
            auth: { persistSession: false, autoRefreshToken: false },
            realtime: { transport: WebSocket as never },
            global: {
              fetch: fetchFrom(address),
              headers: { 'x-forwarded-for': `198.51.100.${attempt + 1}` },
            },
          });
          const { error } = await forging.auth.signInWithPassword({ email, password: PASSWORD });
          statuses.push(error?.status ?? 200);
        }
        expect(statuses).toEqual([...Array(SIGN_IN_LIMIT).fill(200), 429]);

        // Another client address has all of its own.
        const elsewhere = client(cluster, balancer);
        expect((await elsewhere.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

        const { rows } = await cluster.admin.query<{ key: string; count: number }>(
          `select key, count from auth.rate_limits where key = any($1) order by key`,
          [[`ip:signin:${address}`, 'ip:signin:198.51.100.1']],
        );
        expect(rows).toEqual([{ key: `ip:signin:${address}`, count: SIGN_IN_LIMIT + 1 }]);
      });
    });

    it('haproxy sends nothing to a process that is up but not ready, and takes it back once ready', async () => {
      const second = cluster.processes[1];
      // The second process can open no new database connection: its LISTEN connection, cut, stays gone.
      await cluster.admin.query(`alter role ${cluster.secondRole} nologin`);
      await cluster.admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
       where usename = $1 and application_name = 'highgrade listener'`,
        [cluster.secondRole],
      );
      const notReady = async () => (await fetch(`${second?.direct}/ready`)).status === 503;
      for (let tries = 0; !(await notReady()); tries++) {
        if (tries > 100) throw new Error('the second process stayed ready');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Alive all the same: /health answers, and the process still serves what reaches it directly.
      expect((await fetch(`${second?.direct}/health`)).status).toBe(200);

      const visitor = client(cluster, 'haproxy');
      const readAll = async (times: number) => {
        for (let i = 0; i < times; i++) {
          const { error } = await visitor.from('notifications').select('id').limit(1);
          expect(error).toBeNull();
        }
      };
      // haproxy checks every 2 s and takes a process out after two failures.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const before = await served(cluster, 1, 'rest');
        await readAll(4);
        if ((await served(cluster, 1, 'rest')) === before) break;
        if (Date.now() > deadline)
          throw new Error('haproxy kept sending requests to the process that is not ready');
      }
      const before = await served(cluster, 1, 'rest');
      await readAll(10);
      expect(await served(cluster, 1, 'rest')).toBe(before);

      await cluster.admin.query(`alter role ${cluster.secondRole} login`);
      // Ready again once its listener is back (it retries with a growing pause, at most 10 s).
      const back = Date.now() + 40_000;
      for (;;) {
        const start = await served(cluster, 1, 'rest');
        await readAll(4);
        if ((await served(cluster, 1, 'rest')) > start) break;
        if (Date.now() > back) throw new Error('haproxy did not take the process back once it was ready');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }, 90_000);

    it.each(BALANCERS)(
      '%s keeps answering, reads and sign-ins, when a process stops',
      async (balancer) => {
        const second = cluster.processes[1];
        if (second && second.spawned.child.exitCode === null) {
          await stopChild(second.spawned.child);
          await second.spawned.exited;
        }
        const email = uniqueEmail('survivor');
        const service = client(cluster, balancer, { key: cluster.serviceRoleKey });
        const made = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
        expect(made.error).toBeNull();
        const visitor = client(cluster, balancer);
        for (let i = 0; i < 6; i++) {
          const { error } = await visitor.from('notifications').select('id').limit(1);
          expect(error).toBeNull();
        }
        const member = client(cluster, balancer);
        expect((await member.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      },
      60_000,
    );
  },
);
