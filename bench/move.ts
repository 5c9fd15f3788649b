/**
 * `npm run db:move` at scale (decision 218): an embedded install with members and what they wrote —
 * accounts (with the rows their sign-up triggers make), votes, comments, saved articles,
 * notifications, bookings, audit entries — moved to an empty PostgreSQL database. Prints the rows,
 * the time of the whole move (migrating the target included) and of the copy, and rows per second.
 *
 *   npx tsx bench/move.ts [--members=20000]      (BENCH_PG_URL or TEST_PG_URL names the server)
 *
 * Stored files do not take part: they stay in DATA_DIR/storage, or go to S3 with --files-to-s3,
 * which is bounded by the bucket's upload speed, not by the move.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../server/db/migrate.ts';
import { moveDatabase } from '../server/db/move.ts';
import { openPglite } from '../server/db/pglite.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { PROJECT_ROOT } from '../server/paths.ts';

const adminUrl = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL;
if (!adminUrl) {
  process.stderr.write('bench/move.ts needs BENCH_PG_URL or TEST_PG_URL (a PostgreSQL server)\n');
  process.exit(2);
}
const members = Number(/--members=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 20_000);

const SEED = (n: number) => `
insert into auth.users (id, email, aud, role, created_at, encrypted_password, raw_user_meta_data)
  select gen_random_uuid(), 'member' || i || '@bench.example', 'authenticated', 'authenticated',
    now() - make_interval(mins => i), '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
    jsonb_build_object('full_name', 'Member ' || i)
  from generate_series(1, ${n}) i;
create temporary table bench_members as select id, row_number() over (order by id) as i from auth.users;
-- The products voted and commented on (a fresh install has none: samples load only with DEMO_CONTENT).
insert into public.products (id, name, category)
  select 'product-' || k, 'Bench Strain ' || k, 'Flower' from generate_series(1, 3) k
  on conflict (id) do nothing;
insert into public.product_votes (user_id, product_id, vote_type)
  select m.id, 'product-' || k, (array['pass','gas'])[1 + (m.i + k) % 2] from bench_members m, generate_series(1, 3) k;
insert into public.product_comments (user_id, product_id, content)
  select m.id, 'product-' || k, 'A comment of moderate length about product ' || k || ' by member ' || m.i
  from bench_members m, generate_series(1, 2) k;
insert into public.saved_articles (user_id, article_title, article_url)
  select m.id, 'Article ' || m.i, 'https://news.example/' || m.i from bench_members m;
insert into public.notifications (user_id, title, message)
  select m.id, 'Notice ' || k, 'Something happened to member ' || m.i from bench_members m, generate_series(1, 2) k;
insert into public.bookings (user_id, full_name, email, product_name, product_category, booking_date, booking_time)
  select m.id, 'Booker ' || m.i, 'booker' || m.i || '@bench.example', 'Product ' || m.i, 'Edibles',
    to_char(current_date + 1 + (m.i % 300)::int, 'YYYY-MM-DD'), '14:30'
  from bench_members m;
select private.audit('bench.seed', 'public.bookings', i::text, null, jsonb_build_object('i', i))
  from generate_series(1, ${Math.floor(n / 2)}) i;
`;

const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-move-'));
const name = `hg_bench_move_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  const template = join(PROJECT_ROOT, 'node_modules/.cache/highgrade');
  const cached = existsSync(template)
    ? execFileSync('ls', [template], { encoding: 'utf8' })
        .split('\n')
        .filter((entry) => entry.startsWith('pglite-'))
    : [];
  if (cached[0]) await cp(join(template, cached[0], 'db'), join(dataDir, 'db'), { recursive: true });

  let started = performance.now();
  const source = await openPglite({ dataDir });
  await migrate(source);
  await source.exec(SEED(members));
  const seedSeconds = (performance.now() - started) / 1000;
  const size = execFileSync('du', ['-sh', join(dataDir, 'db')], { encoding: 'utf8' }).split('\t')[0];

  await admin.query(`create database ${name}`);
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  started = performance.now();
  const result = await moveDatabase({
    source,
    targetUrl: target.toString(),
    openTarget: (url) => openPostgres({ url, poolMax: 2 }),
  });
  const wall = (performance.now() - started) / 1000;
  await source.close();

  const biggest = [...result.tables].sort((a, b) => b.rows - a.rows).slice(0, 8);
  process.stdout.write(
    [
      `embedded install: ${members} members, ${result.rows} rows in ${result.tables.length} tables, database ${size} (seeded in ${seedSeconds.toFixed(1)} s)`,
      `largest tables: ${biggest.map((table) => `${table.table} ${table.rows}`).join(', ')}`,
      `move: ${wall.toFixed(1)} s in all (target migrated, rows copied, sequences set, counts checked)`,
      `copy: ${(result.copyMs / 1000).toFixed(1)} s, ${Math.round(result.rows / (result.copyMs / 1000))} rows/s`,
      '',
    ].join('\n'),
  );
} finally {
  await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
}
