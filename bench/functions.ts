/**
 * GDPR functions on loopback (prints figures; asserts nothing): export latency and document size for
 * a member with few and with many rows, and the latency of an account deletion (with its files, on
 * the disk backend) — the export is rate-limited per user, the deletion is rare; these figures say
 * what one call costs.
 *
 * Run: `npx tsx bench/functions.ts` (embedded PGlite), or with DATABASE_URL=postgres://… for
 * PostgreSQL. BENCH_ROWS (default 1000) sets the rows per table of the large member.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SignJWT } from 'jose';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const ROUNDS = 5;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d1a5f90000000049454e44ae426082',
  'hex',
);

const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-functions-'));
const server = await startServer(
  loadConfig({
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    GDPR_EXPORT_LIMIT_PER_HOUR: '1000',
  }),
  {
    logger: false,
    webDir: process.env.HIGHGRADE_WEB_DIR || WEB_DIST,
    buildWeb: !process.env.HIGHGRADE_WEB_DIR,
  },
);
const { db, keys } = server.ctx;

async function member(rows: number): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, email, aud, role) values ($1, $2, 'authenticated', 'authenticated')`,
    [id, `${id.slice(0, 8)}@bench.example`],
  );
  await db.query(
    `insert into public.product_votes (user_id, product_id, vote_type)
     select $1, 'product-' || g, 'gas' from generate_series(1, $2) g`,
    [id, rows],
  );
  await db.query(
    `insert into public.product_comments (user_id, product_id, content)
     select $1, 'product-' || g, 'A comment of moderate length about product ' || g from generate_series(1, $2) g`,
    [id, rows],
  );
  await db.query(
    `insert into public.saved_articles (user_id, article_title, article_url)
     select $1, 'Article ' || g, 'https://news.example/' || g from generate_series(1, $2) g`,
    [id, rows],
  );
  await db.query(
    `insert into public.notifications (user_id, title, message)
     select $1, 'Notice ' || g, 'Something happened' from generate_series(1, $2) g`,
    [id, rows],
  );
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ sub: id, role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(keys.jwtSecret));
  for (const name of ['avatar-1.png', 'avatar-2.png']) {
    const response = await fetch(`${server.url}/storage/v1/object/user-uploads/${id}/${name}`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status}`);
  }
  return { id, token };
}

async function timed(call: () => Promise<Response>): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await call();
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  return { ms, bytes: body.byteLength };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

try {
  console.log(`GDPR functions, ${db.mode} database, disk backend, median of ${ROUNDS}`);
  for (const rows of [10, ROWS]) {
    const { token } = await member(rows);
    const runs = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      runs.push(
        await timed(() =>
          fetch(`${server.url}/functions/v1/gdpr-data-export`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          }),
        ),
      );
    }
    const measured = runs.slice(1); // the first warms caches and plans
    console.log(
      `export, ${String(rows).padStart(5)} rows × 4 tables   ${median(measured.map((r) => r.ms))
        .toFixed(1)
        .padStart(8)} ms   ${(median(measured.map((r) => r.bytes)) / 1024).toFixed(0).padStart(6)} KiB`,
    );
  }
  for (const rows of [10, ROWS]) {
    const deletions = [];
    for (let i = 0; i < ROUNDS; i++) {
      const { token } = await member(rows);
      deletions.push(
        await timed(() =>
          fetch(`${server.url}/functions/v1/gdpr-data-deletion`, {
            method: 'DELETE',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ confirm_deletion: true }),
          }),
        ),
      );
    }
    console.log(
      `deletion, ${String(rows).padStart(5)} rows × 4 tables + 2 files   ${median(deletions.map((r) => r.ms))
        .toFixed(1)
        .padStart(8)} ms`,
    );
  }
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
