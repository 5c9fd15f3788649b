/**
 * The admin dashboard's API calls (issue 15 "Done when": each list page's API time p95 ≤ 50 ms on
 * PostgreSQL with 10,000 bookings and 100,000 members seeded), through /rest/v1 of the real server as
 * a signed-in admin, one request at a time (what a dashboard page does), on both databases.
 *
 *   npx tsx bench/admin.ts [pglite|postgres|both] [requests per call] [PGlite members]
 *
 * PostgreSQL (BENCH_PG_URL or TEST_PG_URL, a scratch database) gets 100,000 members and 10,000
 * bookings. PGlite gets 10,000 bookings and, by default, 20,000 members (third argument): seeding
 * 100,000 accounts through the sign-up trigger in the embedded database takes minutes on a small
 * machine; pass 100000 to seed the full size there too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import { scratchPostgres, table } from './support.ts';

const which = process.argv[2] ?? 'both';
const REQUESTS = Number(process.argv[3] ?? 60);
const PGLITE_MEMBERS = Number(process.argv[4] ?? 20_000);
const BOOKINGS = 10_000;
const ADMIN = '00000000-0000-4000-8000-00000000ad00';

function seedSql(members: number): string {
  return `
insert into auth.users (id, email, aud, role, created_at)
  values ('${ADMIN}', 'admin@bench.example', 'authenticated', 'authenticated', now());
insert into public.user_roles (user_id, role) values ('${ADMIN}', 'admin');
insert into auth.users (id, email, aud, role, created_at)
  select gen_random_uuid(), 'member' || i || '@bench.example', 'authenticated', 'authenticated',
    now() - make_interval(mins => i)
  from generate_series(1, ${members}) i;
insert into public.bookings (full_name, email, product_name, product_category, booking_date, booking_time, status)
  select 'Booker ' || i, 'booker' || i || '@bench.example', 'Product ' || i,
    (array['Flower','Concentrates','Edibles','Vape Cartridges','Topicals','Accessories','Seeds','Other'])[1 + i % 8],
    to_char(current_date + 1 + (i % 300), 'YYYY-MM-DD'),
    (array['09:00','09:30','10:00','10:30','11:00','11:30','12:00','12:30','13:00','13:30','14:00','14:30','15:00','15:30','16:00','16:30','17:00'])[1 + (i / 300) % 17],
    case when i <= 5100 and i % 4 = 1 then 'confirmed' when i % 4 = 2 then 'declined' else 'new' end
  from generate_series(1, ${BOOKINGS}) i;
select private.audit('bench.seed', 'public.bookings', i::text, null, jsonb_build_object('i', i))
  from generate_series(1, 10000) i;
insert into public.security_events (type, category, action, description, risk_level)
  select 'bench', 'bench', 'probe', 'event ' || i, (array['low','medium','high','critical'])[1 + i % 4]
  from generate_series(1, 10000) i;
analyze;
`;
}

interface Call {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  /** A POST's JSON body ({} if none). */
  body?: object;
  prefer?: string;
}

const MEMBER_COLUMNS =
  'id,email,username,full_name,avatar_url,created_at,last_sign_in_at,suspended,is_admin,subscription_status,subscription_expires_at,trial_ends_at,report_count,booking_count';
const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
const CALLS: Call[] = [
  { name: 'home: admin_dashboard_counts', path: '/rest/v1/rpc/admin_dashboard_counts', method: 'POST' },
  {
    name: 'bookings: page 1, newest',
    path: '/rest/v1/admin_bookings?select=*&order=created_at.desc,id.desc&offset=0&limit=25',
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'bookings: status+date+category',
    path: `/rest/v1/admin_bookings?select=*&status=eq.new&booking_date=eq.${day}&product_category=eq.Flower&order=created_at.desc,id.desc&offset=0&limit=25`,
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'bookings: by session date, page 40',
    path: '/rest/v1/admin_bookings?select=*&order=booking_date.asc,booking_time.asc,id.asc&offset=975&limit=25',
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  { name: 'bookings: one (detail)', path: '/rest/v1/admin_bookings?select=*&limit=1&status=eq.confirmed' },
  {
    name: 'audit: page 1',
    path: '/rest/v1/admin_audit_log?select=*&order=id.desc&offset=0&limit=25',
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'audit: table+action',
    path: '/rest/v1/admin_audit_log?select=*&target_table=eq.public.bookings&action=eq.bench.seed&order=id.desc&offset=0&limit=25',
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'members: page 1, newest',
    path: `/rest/v1/admin_members?select=${MEMBER_COLUMNS}&order=created_at.desc,id.desc&offset=0&limit=25`,
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'members: search "member4242"',
    // As the page asks (decision 280): every word typed begins a word of the member's.
    path: '/rest/v1/rpc/admin_find_members',
    method: 'POST',
    body: { q: 'member4242', page_offset: 0, page_rows: 25 },
  },
  {
    // What the page sends for "Admins": the admins' ids (read from user_roles first), not is_admin=eq.true.
    name: 'members: admins only (by id)',
    path: `/rest/v1/admin_members?select=${MEMBER_COLUMNS}&id=in.(${ADMIN})&order=created_at.desc,id.desc&offset=0&limit=25`,
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
  {
    name: 'security events: risk=high',
    path: '/rest/v1/security_events?select=id,created_at,type,category,action,description,risk_level,user_id,ip&risk_level=eq.high&order=created_at.desc,id.desc&offset=0&limit=25',
    prefer: 'count=estimated', // as the admin lists ask (decision 252)
  },
];

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

async function run(tier: 'pglite' | 'postgres'): Promise<object[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-admin-'));
  const scratch = tier === 'postgres' ? await scratchPostgres() : null;
  const members = tier === 'postgres' ? 100_000 : PGLITE_MEMBERS;
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    }),
    { logger: false, webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST },
  );
  try {
    const seeding = performance.now();
    await server.ctx.db.exec(seedSql(members));
    process.stdout.write(
      `${tier}: seeded ${members.toLocaleString('en-US')} members, ${BOOKINGS.toLocaleString('en-US')} bookings, 10,000 audit rows, 10,000 security events in ${Math.round(performance.now() - seeding)} ms\n`,
    );
    const { keys } = server.ctx;
    const token = await new SignJWT({ role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ADMIN)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(new TextEncoder().encode(keys.jwtSecret));
    const headers = {
      apikey: keys.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const rows: object[] = [];
    for (const call of CALLS) {
      const samples: number[] = [];
      let rowsSeen = '';
      for (let i = 0; i < REQUESTS + 5; i += 1) {
        const started = performance.now();
        const response = await fetch(`${server.url}${call.path}`, {
          method: call.method ?? 'GET',
          headers: { ...headers, ...(call.prefer ? { prefer: call.prefer } : {}) },
          ...(call.method === 'POST' ? { body: JSON.stringify(call.body ?? {}) } : {}),
        });
        const body = await response.text();
        const elapsed = performance.now() - started;
        if (response.status >= 300)
          throw new Error(`${call.name}: HTTP ${response.status} ${body.slice(0, 200)}`);
        if (i >= 5) samples.push(elapsed);
        rowsSeen = response.headers.get('content-range') ?? `${body.length} bytes`;
      }
      rows.push({
        tier,
        call: call.name,
        'p50 ms': Math.round(samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0),
        'p95 ms': Math.round(p95(samples)),
        answer: rowsSeen,
      });
    }
    return rows;
  } finally {
    await server.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results: object[] = [];
if (which === 'postgres' || which === 'both') results.push(...(await run('postgres')));
if (which === 'pglite' || which === 'both') results.push(...(await run('pglite')));
table(results);
