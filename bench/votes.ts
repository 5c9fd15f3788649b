/**
 * Pass or Gas at size (issue 17): seeds products and votes, then measures through /rest/v1 what
 * members do — the Top and Trending first page, a vote write — and sustained votes per second, and
 * checks afterwards that every product's tallies equal a recount of its votes.
 *
 *   npx tsx bench/votes.ts [pglite|postgres] [--scale=1]
 *
 * Full size is 50,000 products and 2,000,000 votes on PostgreSQL and a tenth of that on PGlite;
 * --scale multiplies both (say which you ran). `postgres` needs BENCH_PG_URL or TEST_PG_URL.
 * The seed bypasses the triggers (session_replication_role = replica) and then computes the tallies
 * in one statement, as a bulk import would; the measured writes go through the API and the triggers.
 * The bench lifts the vote write quota (decision 094) so one process can stand in for many members.
 */

import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startTestServer } from '#tests/support/test-server.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const scaleArg = process.argv.find((arg) => arg.startsWith('--scale='));
const scale = scaleArg ? Number(scaleArg.slice('--scale='.length)) : 1;
const base = tier === 'postgres' ? 1 : 0.1;
const PRODUCTS = Math.max(100, Math.round(50_000 * base * scale));
const VOTES = Math.max(1000, Math.round(2_000_000 * base * scale));
const VOTES_PER_VOTER = 50;
const VOTERS = Math.ceil(VOTES / VOTES_PER_VOTER);

if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

/** The sustained-votes clients (a worker thread's source): the same request as `vote` below. */
const LOAD_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, anonKey, members, products, seconds } = workerData;
let cursor = workerData.cursor;
let ok = 0;
let failed = 0;
const until = performance.now() + seconds * 1000;
const vote = async (member) => {
  cursor += 1;
  const response = await fetch(url + '/rest/v1/product_votes', {
    method: 'POST',
    headers: {
      apikey: anonKey,
      authorization: 'Bearer ' + member.token,
      'content-type': 'application/json',
      'x-forwarded-for': member.address,
      prefer: 'return=minimal,resolution=ignore-duplicates',
    },
    body: JSON.stringify({ product_id: 'bench-' + (1 + ((cursor * 48271) % products)), vote_type: cursor % 3 === 0 ? 'pass' : 'gas' }),
  });
  await response.text();
  if (response.status < 300 || response.status === 409) ok += 1;
  else failed += 1;
};
Promise.all(members.map(async (member) => {
  while (performance.now() < until) await vote(member);
})).then(() => parentPort.postMessage({ ok, failed }));
`;

const p95 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
};

async function main() {
  console.log(`Pass or Gas bench on ${tier}: ${PRODUCTS} products, ${VOTES} votes (scale ${scale})`);
  const server = await startTestServer({
    VOTE_MIN_ACCOUNT_AGE_HOURS: '0',
    TRUST_PROXY: '127.0.0.1',
    DEMO_CONTENT: 'false',
    RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  });
  const db = server.db;
  try {
    const seedStart = performance.now();
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.products (id, name, category, strain_type, created_at)
         select 'bench-' || g, 'Bench product ' || g,
           (array['Flower','Concentrates','Edibles','Vape Cartridges','Topicals','Accessories','Seeds','Other'])[1 + g % 8],
           (array['indica','sativa','hybrid','n/a'])[1 + g % 4], now() - make_interval(mins => g)
         from generate_series(1, $1::int) g`,
        [PRODUCTS],
      );
      await tx.query(
        `insert into auth.users (id, email, aud, role, email_confirmed_at, created_at)
         select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench-voter-' || g || '@example.com',
           'authenticated', 'authenticated', now(), now() - interval '30 days'
         from generate_series(1, $1::int) g`,
        [VOTERS],
      );
      // Each voter votes on VOTES_PER_VOTER distinct products, skewed towards low ids (popular ones),
      // Gas more often than Pass, cast over the last 30 days.
      await tx.query(
        `insert into public.product_votes (user_id, product_id, vote_type, status, counts_from, created_at, updated_at)
         select ('00000000-0000-4000-9000-' || lpad(to_hex(u), 12, '0'))::uuid,
           'bench-' || (1 + ((u * 7919 + k * k * 104729 + floor(power(random(), 2) * $2::int)::int) % $2::int)),
           case when random() < 0.7 then 'gas' else 'pass' end, 'counted', now() - interval '30 days', t, t
         from generate_series(1, $1::int) u, generate_series(1, ${VOTES_PER_VOTER}) k,
           lateral (select now() - random() * interval '30 days' as t) ts
         on conflict (user_id, product_id) do nothing`,
        [VOTERS, PRODUCTS],
      );
      await tx.query(
        `insert into public.product_tallies (product_id, gas, pass, trend, last_vote_at)
         select p.id,
           count(*) filter (where v.vote_type = 'gas'), count(*) filter (where v.vote_type = 'pass'),
           coalesce(sum(case when v.vote_type = 'gas' then 1 else -1 end * private.votes_trend_weight(v.updated_at))
             filter (where v.id is not null), 0),
           max(v.updated_at)
         from public.products p left join public.product_votes v on v.product_id = p.id
         where p.id like 'bench-%'
         group by p.id`,
      );
    });
    await db.query('analyze public.products, public.product_votes, public.product_tallies');
    const { rows: counted } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.product_votes',
    );
    console.log(
      `seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (${counted[0]?.n} votes)`,
    );
    await db.query(
      `update private.write_quotas set per_minute = 1000000, per_day = 100000000 where relation = 'public.product_votes'::regclass`,
    );

    // The plans of the two first pages as the data API runs them (anon role, security-invoker view).
    for (const order of ['wilson desc, counted desc, id', 'trend_key desc, id']) {
      const plan = await db.transaction(async (tx) => {
        await tx.query('set local role anon');
        return tx.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers, costs off) select id, name, brand_name, category, gas, pass, counted, wilson,
             trending_score, is_sample from public.product_rankings order by ${order} limit 24`,
        );
      });
      console.log(`\nplan, order by ${order}:\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    }

    const headers = { apikey: server.anonKey };
    const page = async (order: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        const start = performance.now();
        const response = await fetch(
          `${server.url}/rest/v1/product_rankings?select=id,name,brand_name,category,gas,pass,counted,wilson,trending_score,is_sample&order=${order}&limit=24`,
          { headers },
        );
        await response.json();
        if (response.status !== 200) throw new Error(`list: ${response.status}`);
        if (i >= 5) samples.push(performance.now() - start);
      }
      return p95(samples);
    };
    const topP95 = await page('wilson.desc,counted.desc,id.asc');
    const trendingP95 = await page('trend_key.desc,id.asc');

    // Members who vote through the API: real accounts, each from an address of its own.
    const members: { id: string; token: string; address: string }[] = [];
    const admin = createClient(server.url, server.serviceRoleKey, {
      auth: { persistSession: false },
      realtime: { transport: WebSocket as never },
    });
    for (let i = 0; i < 40; i += 1) {
      const email = `bench-member-${i}-${Date.now()}@example.com`;
      const created = await admin.auth.admin.createUser({
        email,
        password: 'bench password 1',
        email_confirm: true,
      });
      if (created.error) throw created.error;
      const client = createClient(server.url, server.anonKey, {
        auth: { persistSession: false },
        realtime: { transport: WebSocket as never },
      });
      const signed = await client.auth.signInWithPassword({ email, password: 'bench password 1' });
      if (signed.error || !signed.data.session) throw signed.error ?? new Error('no session');
      members.push({
        id: signed.data.user?.id ?? '',
        token: signed.data.session.access_token,
        address: `10.200.${i}.1`,
      });
    }
    // One member's vote as the data API writes it (role, claims, client address), with the time each
    // trigger takes; rolled back.
    {
      const { rows: who } = await db.query<{ id: string }>(
        `select id from auth.users where email like 'bench-member-0-%' limit 1`,
      );
      const plan = await db
        .withScope(
          {
            role: 'authenticated',
            claims: { sub: who[0]?.id, role: 'authenticated', aud: 'authenticated' },
            headers: { 'x-forwarded-for': '10.200.0.1' },
            method: 'POST',
            path: '/rest/v1/product_votes',
          },
          async (tx) => {
            // A first vote compiles the trigger functions on this connection; the second is the one shown.
            await tx.query(
              `insert into public.product_votes (user_id, product_id, vote_type) values ($1, 'bench-16', 'gas')`,
              [who[0]?.id],
            );
            const result = await tx.query<{ 'QUERY PLAN': string }>(
              `explain (analyze, buffers, costs off) insert into public.product_votes (user_id, product_id, vote_type)
               values ($1, 'bench-17', 'gas')`,
              [who[0]?.id],
            );
            throw Object.assign(new Error('rollback'), { plan: result.rows });
          },
        )
        .catch((error: { plan?: { 'QUERY PLAN': string }[] }) => {
          if (!error.plan) throw error;
          return error.plan;
        });
      console.log(`\nplan, one vote:\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
    }

    let cursor = 0;
    const vote = async (member: { id: string; token: string; address: string }) => {
      cursor += 1;
      const product = `bench-${1 + ((cursor * 48271) % PRODUCTS)}`;
      const response = await fetch(`${server.url}/rest/v1/product_votes`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${member.token}`,
          'content-type': 'application/json',
          'x-forwarded-for': member.address,
          prefer: 'return=minimal,resolution=ignore-duplicates',
        },
        body: JSON.stringify({ product_id: product, vote_type: cursor % 3 === 0 ? 'pass' : 'gas' }),
      });
      await response.text();
      return response.status;
    };
    const writeSamples: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const start = performance.now();
      const status = await vote(members[i % members.length] as (typeof members)[number]);
      if (status >= 300 && status !== 409) throw new Error(`vote: ${status}`);
      if (i >= 10) writeSamples.push(performance.now() - start);
    }
    const writeP95 = p95(writeSamples);

    // The 16 clients run in a worker thread: sharing the server's event loop, they would take its time
    // (members' requests come from elsewhere). They still share the machine's cores with it.
    const seconds = 10;
    const { ok, failed } = await new Promise<{ ok: number; failed: number }>((resolve, reject) => {
      const worker = new Worker(LOAD_CLIENTS, {
        eval: true,
        workerData: {
          url: server.url,
          anonKey: server.anonKey,
          members: members.slice(0, 16),
          products: PRODUCTS,
          cursor: cursor + 1_000_000,
          seconds,
        },
      });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    cursor += 1_000_000;
    const perSecond = ok / seconds;

    // The same votes without HTTP: each one the transaction the data API opens for it (role, claims,
    // client address), 16 at once through the server's own pool: what the database sustains.
    const sqlUntil = performance.now() + seconds * 1000;
    let sqlOk = 0;
    await Promise.all(
      members.slice(16, 32).map(async (member) => {
        while (performance.now() < sqlUntil) {
          cursor += 1;
          const product = `bench-${1 + ((cursor * 48271) % PRODUCTS)}`;
          await db.withScope(
            {
              role: 'authenticated',
              claims: { sub: member.id, role: 'authenticated', aud: 'authenticated' },
              headers: { 'x-forwarded-for': member.address },
              method: 'POST',
              path: '/rest/v1/product_votes',
            },
            (tx) =>
              tx.query(
                `insert into public.product_votes (user_id, product_id, vote_type) values ($1, $2, $3)
                 on conflict (user_id, product_id) do nothing`,
                [member.id, product, cursor % 3 === 0 ? 'pass' : 'gas'],
              ),
          );
          sqlOk += 1;
        }
      }),
    );
    const sqlPerSecond = sqlOk / seconds;

    const { rows: wrong } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.product_tallies t
       left join (
         select product_id, count(*) filter (where status = 'counted' and vote_type = 'gas') as gas,
           count(*) filter (where status = 'counted' and vote_type = 'pass') as pass,
           count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'held') as held
         from public.product_votes group by product_id
       ) v on v.product_id = t.product_id
       where (t.gas, t.pass, t.pending, t.held) is distinct from
         (coalesce(v.gas, 0), coalesce(v.pass, 0), coalesce(v.pending, 0), coalesce(v.held, 0))`,
    );

    console.table([
      {
        tier,
        products: PRODUCTS,
        votes: VOTES,
        'Top page p95 ms': topP95.toFixed(1),
        'Trending page p95 ms': trendingP95.toFixed(1),
        'vote write p95 ms': writeP95.toFixed(1),
        'votes/s (16 clients in a worker thread, 10 s)': perSecond.toFixed(0),
        'votes/s in SQL (16 at once, no HTTP)': sqlPerSecond.toFixed(0),
        'refused during the run': failed,
        'products with wrong tallies': wrong[0]?.n,
        'load average': loadavg()[0]?.toFixed(1),
      },
    ]);
  } finally {
    await server.close();
  }
}

await main();
