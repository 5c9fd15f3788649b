#!/usr/bin/env node
// `npm run cluster`: the deployment of docs/deploy.md on one machine, for trying it — N server
// processes (default 3) on one PostgreSQL database, one S3 bucket (s3rver, a local S3-compatible
// server) and haproxy in front, running deploy/haproxy.cfg with local addresses (or nginx with
// `--nginx`, deploy/nginx.conf). Prints the URL and the API keys; Ctrl-C stops everything.
//
//   npm run cluster                      3 processes behind haproxy on http://127.0.0.1:8000
//   npm run cluster -- --processes 5     5 processes
//   npm run cluster -- --nginx           nginx instead of haproxy
//   npm run cluster -- --port 9000       the balancer on another port (processes on the next ones)
//   npm run cluster -- --fresh           start over: a new database, bucket and secret
//
// The database `highgrade_cluster` is created on the PostgreSQL server of CLUSTER_PG_URL (default
// postgres://postgres@127.0.0.1:5432/postgres); it, the bucket's files, the processes' DATA_DIRs and
// the shared JWT secret stay in `.cluster/` between runs until `--fresh`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import pg from 'pg';
import S3rver from 's3rver';
import { haproxyConfig, nginxConfig } from './cluster-config.mjs';
import { ensureServerBuild, PROJECT_ROOT } from './server-build.mjs';

const { values: options } = parseArgs({
  options: {
    processes: { type: 'string', short: 'n', default: '3' },
    port: { type: 'string', default: '8000' },
    nginx: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  process.stdout.write(
    (await readFile(new URL(import.meta.url), 'utf8')).split('\n').slice(1, 17).join('\n'),
  );
  process.stdout.write('\n');
  process.exit(0);
}
const count = Number(options.processes);
const port = Number(options.port);
if (!Number.isInteger(count) || count < 1 || count > 32)
  fail('--processes must be a whole number from 1 to 32');
if (!Number.isInteger(port) || port < 1 || port + count + 1 > 65535)
  fail('--port must be a free port number');
const balancer = options.nginx ? 'nginx' : 'haproxy';
const binary = `/usr/sbin/${balancer}`;
if (!existsSync(binary))
  fail(`${balancer} is not installed: apt-get install -y ${options.nginx ? 'nginx-light' : 'haproxy'}`);

function fail(message) {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(1);
}

const home = join(PROJECT_ROOT, '.cluster');
const DATABASE = 'highgrade_cluster';
const adminUrl = process.env.CLUSTER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${DATABASE}` }).toString();

// ---------------------------------------------------------------------------- what is shared
const admin = new pg.Client({ connectionString: adminUrl });
try {
  await admin.connect();
} catch (error) {
  fail(`PostgreSQL does not answer at ${adminUrl} (${error.message}); set CLUSTER_PG_URL`);
}
if (options.fresh) {
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await rm(home, { recursive: true, force: true });
}
const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
await admin.end();

await mkdir(join(home, 's3'), { recursive: true });
const secretFile = join(home, 'jwt-secret');
if (!existsSync(secretFile))
  await writeFile(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
const jwtSecret = (await readFile(secretFile, 'utf8')).trim();

const BUCKET = 'highgrade';
const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: join(home, 's3'),
  configureBuckets: [{ name: BUCKET }],
});
const s3Address = await s3.run();

const url = `http://127.0.0.1:${port}`;
/** One environment for every process, as deploy/highgrade.env.example lists it; each adds PORT and DATA_DIR. */
const shared = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  HOST: '127.0.0.1',
  SITE_URL: url,
  DATABASE_URL: databaseUrl,
  JWT_SECRET: jwtSecret,
  TRUST_PROXY: '127.0.0.1',
  STORAGE_BACKEND: 's3',
  STORAGE_S3_BUCKET: BUCKET,
  STORAGE_S3_ENDPOINT: `http://127.0.0.1:${s3Address.port}`,
  STORAGE_S3_FORCE_PATH_STYLE: 'true',
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  ...(process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {}),
};

// ---------------------------------------------------------------------------- processes
const children = [];
let stopping = false;

function prefixed(name, stream, target) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) target.write(`[${name}] ${line}\n`);
  });
}

function run(name, command, args, env) {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  prefixed(name, child.stdout, process.stdout);
  prefixed(name, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`[${name}] exited (${code ?? signal})\n`);
  });
  children.push(child);
  return child;
}

async function stop() {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\ncluster: stopping\n');
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await s3.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// Built once here rather than by every process at once.
await ensureServerBuild((message) => process.stdout.write(`cluster: ${message}\n`));

const servers = [];
await Promise.all(
  Array.from({ length: count }, async (_, index) => {
    const name = `hg${index + 1}`;
    const serverPort = port + 1 + index;
    const dataDir = join(home, name);
    await mkdir(dataDir, { recursive: true });
    const child = run(name, process.execPath, [join(PROJECT_ROOT, 'scripts/start.mjs')], {
      ...shared,
      PORT: String(serverPort),
      DATA_DIR: dataDir,
    });
    await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (/running at http/.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
    });
    servers[index] = `127.0.0.1:${serverPort}`;
  }),
).catch(async (error) => {
  process.stderr.write(`cluster: ${error.message}\n`);
  await stop();
});

// ---------------------------------------------------------------------------- the balancer
const listen = `127.0.0.1:${port}`;
const configFile = join(home, `${balancer}.conf`);
if (balancer === 'haproxy') {
  await writeFile(configFile, await haproxyConfig({ listen, servers }));
  run('haproxy', binary, ['-db', '-f', configFile], process.env);
} else {
  const prefix = join(home, 'nginx');
  await mkdir(prefix, { recursive: true, mode: 0o755 });
  await writeFile(configFile, await nginxConfig({ listen, servers, prefix }));
  run('nginx', binary, ['-c', configFile, '-p', prefix, '-g', 'daemon off;'], process.env);
}
for (let tries = 0; ; tries++) {
  const answer = await fetch(`${url}/ready`).catch(() => undefined);
  if (answer?.status === 200) break;
  if (tries > 100) {
    process.stderr.write(`cluster: ${balancer} does not answer on ${url}\n`);
    await stop();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const key = (role) =>
  new SignJWT({ role, iss: 'supabase' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10y')
    .sign(new TextEncoder().encode(jwtSecret));

process.stdout.write(
  [
    '',
    `HighGrade cluster: ${count} process(es) behind ${balancer} at ${url}`,
    `  processes    ${servers.map((server) => `http://${server}`).join(' ')}`,
    `  database     ${databaseUrl}`,
    `  S3           ${shared.STORAGE_S3_ENDPOINT} bucket ${BUCKET} (files in .cluster/s3)`,
    `  anon key     ${await key('anon')}`,
    `  service key  ${await key('service_role')}`,
    'Ctrl-C stops everything; data stays in .cluster/ and the database until --fresh.',
    '',
  ].join('\n'),
);
