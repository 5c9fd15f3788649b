/**
 * `npm run backup` of an embedded install holding about 1 GB (decision 215): how long the backup takes,
 * how long writers waited at the snapshot point, and the p50/p99 of API writes made meanwhile against
 * the same writes without a backup, interleaved (quiet, backup, quiet, backup …) so a change in the
 * machine's load touches both alike. Then one restore of the last archive, timed.
 *
 * The install: BENCH_BACKUP_MB (default 1000) of storage files uploaded through the API in 4 MB
 * objects, plus members and rows. The writes measured: small uploads (a storage row and its file) by
 * BENCH_WRITERS (default 4) clients at once. Everything is made under a temporary directory and
 * removed at the end.
 * Run: npx tsx bench/backup.ts [rounds=3]
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#server/paths.ts';

const rounds = Number(process.argv[2] ?? 3);
const totalMb = Number(process.env.BENCH_BACKUP_MB ?? 1000);
const writers = Number(process.env.BENCH_WRITERS ?? 4);
const OBJECT_MB = 4;
const MEMBERS = 50;

const root = await mkdtemp(join(tmpdir(), 'hg-bench-backup-'));
const dataDir = join(root, 'data');
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
};

function startServer(dir: string) {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: { ...env, DATA_DIR: dir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    exited.then(() => reject(new Error('the server exited before it was ready')));
  });
  return {
    ready,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function run(
  script: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ stdout: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: PROJECT_ROOT, env: { ...env, ...extra }, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${script} failed: ${stderr}`));
        else resolve({ stdout, seconds: (performance.now() - started) / 1000 });
      },
    ),
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const server = startServer(dataDir);
try {
  const url = await server.ready;
  const keys = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8'));
  const service = { apikey: keys.service_role_key, authorization: `Bearer ${keys.service_role_key}` };
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...service,
        ...(body instanceof Buffer ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof Buffer ? body : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  await api('POST', '/storage/v1/bucket', { id: 'bench', name: 'bench', public: false });
  const upload = (name: string, body: Buffer) =>
    api('POST', `/storage/v1/object/bench/${name}`, body, { 'content-type': 'application/octet-stream' });

  // The install: files (one random block, a different first bytes per object), members and rows.
  const filling = performance.now();
  const block = randomBytes(OBJECT_MB << 20);
  const objects = Math.ceil(totalMb / OBJECT_MB);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let index = next++; index < objects; index = next++) {
        const body = Buffer.from(block);
        body.write(`object ${index} `);
        await upload(`data/${index}.bin`, body);
      }
    }),
  );
  for (let member = 0; member < MEMBERS; member++) {
    const created = await api('POST', '/auth/v1/admin/users', {
      email: `bench-${member}-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      email_confirm: true,
    });
    const { id } = (await created.json()) as { id: string };
    await api(
      'POST',
      '/rest/v1/scammer_watches',
      Array.from({ length: 20 }, (_, index) => ({
        user_id: id,
        kind: 'name',
        value: `Watched ${member} ${index}`,
      })),
    );
  }
  console.log(
    `install: ${objects} objects of ${OBJECT_MB} MB, ${MEMBERS} members with 20 rows each, in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
  );

  // Writers: small uploads, back to back, each timed.
  const small = randomBytes(8192);
  let counter = 0;
  const measure = async (during: () => Promise<void>) => {
    const latencies: number[] = [];
    let stop = false;
    const loops = Array.from({ length: writers }, async () => {
      while (!stop) {
        const started = performance.now();
        await upload(`live/${counter++}.bin`, small);
        latencies.push(performance.now() - started);
      }
    });
    await during();
    stop = true;
    await Promise.all(loops);
    return latencies;
  };

  const rows: string[] = [];
  let lastArchive = '';
  for (let round = 1; round <= rounds; round++) {
    const archive = join(root, `backup-${round}.tar`);
    let backup = { stdout: '', seconds: 0 };
    const during = await measure(async () => {
      backup = await run('server/cli/backup.ts', [archive]);
    });
    const quiet = await measure(() => new Promise((resolve) => setTimeout(resolve, backup.seconds * 1000)));
    const pause = /writers waited (\d+) ms/.exec(backup.stdout)?.[1] ?? '?';
    const size = /Wrote .*?: (\d+) files, ([\d.]+) MB/.exec(backup.stdout);
    rows.push(
      `| ${round} | ${backup.seconds.toFixed(1)} s | ${size?.[2]} MB, ${size?.[1]} files | ${pause} ms | ` +
        `${percentile(quiet, 50).toFixed(0)} / ${percentile(quiet, 99).toFixed(0)} ms (${quiet.length}) | ` +
        `${percentile(during, 50).toFixed(0)} / ${percentile(during, 99).toFixed(0)} ms (${during.length}) | ` +
        `${(percentile(during, 99) / percentile(quiet, 99)).toFixed(2)}× |`,
    );
    if (lastArchive) await rm(lastArchive, { force: true });
    lastArchive = archive;
  }
  console.log(`\n${writers} writers of 8 KB uploads; p50 / p99 (writes)`);
  console.log(
    '| round | backup time | archive | writers waited | without backup | during backup | p99 ratio |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);

  const restored = join(root, 'restored');
  const restore = await run('server/cli/restore.ts', [lastArchive], { DATA_DIR: restored });
  console.log(`\nrestore of the last archive into an empty DATA_DIR: ${restore.seconds.toFixed(1)} s`);
} finally {
  await server.stop();
  await rm(root, { recursive: true, force: true });
}
