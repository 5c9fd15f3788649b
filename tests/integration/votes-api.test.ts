// @databases: both — vote guards, tallies and rankings are SQL triggers under concurrency.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { userToken } from '#tests/support/rest-fixture.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { PASSWORD, signedInUser } from '#tests/support/users.ts';
import { trendingBounds, trendingScore } from '#web/features/pass-or-gas/ranking.ts';

/**
 * Pass or Gas through supabase-js on the real server (decisions 115–116): ranking formulas against
 * hand-computed values, every write's guard, counting rules (pending, held), the ring test, moderation
 * and the sample catalogue.
 */

let server: TestServer;
let productA: string;
let productB: string;
let productC: string;
let addressCounter = 0;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS, TRUST_PROXY: '127.0.0.1' });
  await server.db.query('select private.votes_samples(false)');
  const { rows } = await server.db.query<{ id: string }>(
    `insert into public.products (name, category, strain_type) values
       ('Alpha OG', 'Flower', 'indica'), ('Beta Haze', 'Flower', 'sativa'), ('Gamma Gummies', 'Edibles', 'n/a')
     returning id`,
  );
  [productA, productB, productC] = rows.map((row) => row.id) as [string, string, string];
});
afterAll(() => server?.close());

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

const tally = async (productId: string) =>
  (
    await sql<{ gas: number; pass: number; pending: number; held: number; counted: number }>(
      'select gas, pass, pending, held, counted from public.product_tallies where product_id = $1',
      [productId],
    )
  )[0];

/** A confirmed member signed in from their own client address (X-Forwarded-For; the server trusts loopback). */
async function member(prefix: string, address?: string): Promise<{ id: string; client: SupabaseClient }> {
  addressCounter += 1;
  // Taken before the first await: members created at once each get their own address.
  const from = address ?? `10.1.${addressCounter >> 8}.${addressCounter & 255}`;
  const email = `${prefix}-${addressCounter}-${Date.now()}@example.com`;
  const created = await signedInUser(server, { email });
  const client = createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: {
      headers: { 'x-forwarded-for': from },
    },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { id: created.id, client };
}

const backdate = (userId: string, hours: number) =>
  sql(`update auth.users set created_at = now() - make_interval(hours => $2) where id = $1`, [userId, hours]);

describe('ranking formulas (hand-computed values)', () => {
  it('Wilson lower bound at 95 %: 0 votes, all Gas, all Pass, mixed', async () => {
    const [row] = await sql<Record<string, number>>(
      `select private.votes_wilson(0, 0) as none, private.votes_wilson(10, 0) as all_gas,
              private.votes_wilson(0, 10) as all_pass, private.votes_wilson(5, 5) as half,
              private.votes_wilson(1, 0) as one_gas, private.votes_wilson(3, 1) as three_one`,
    );
    // p̂ = 1, n = 10: (1 + z²/2n − z·z/2n) / (1 + z²/n) = 1 / 1.3841459 = 0.72246720
    expect(row?.none).toBe(0);
    expect(row?.all_gas).toBeCloseTo(0.7224672, 6);
    expect(row?.all_pass).toBeCloseTo(0, 9);
    expect(row?.half).toBeCloseTo(0.2365931, 6);
    expect(row?.one_gas).toBeCloseTo(0.2065493, 6);
    expect(row?.three_one).toBeCloseTo(0.3006418, 6);
  });

  it('Trending: each counted vote weighs 2^(−age / 48 h), Gas +, Pass −', async () => {
    const [row] = await sql<Record<string, number>>(
      `with t(at) as (select timestamptz '2026-12-01 00:00:00+00')
       select
         public.votes_trending_score(0, (select at from t)) as none,
         public.votes_trending_score(3 * private.votes_trend_weight((select at from t)), (select at from t)) as three_gas_now,
         public.votes_trending_score(
           -2 * private.votes_trend_weight((select at from t) - interval '48 hours'), (select at from t)) as two_pass_two_days,
         public.votes_trending_score(
           private.votes_trend_weight((select at from t) - interval '48 hours')
           + private.votes_trend_weight((select at from t) - interval '96 hours')
           - private.votes_trend_weight((select at from t)), (select at from t)) as mixed`,
    );
    expect(row?.none).toBe(0);
    expect(row?.three_gas_now).toBeCloseTo(3, 9);
    expect(row?.two_pass_two_days).toBeCloseTo(-1, 9);
    expect(row?.mixed).toBeCloseTo(0.5 + 0.25 - 1, 9);
  });

  it('the view publishes every number behind a position', async () => {
    const { data, error } = await adminClient(server)
      .from('product_rankings')
      .select(
        'id, gas, pass, counted, pending, held, gas_share, wilson, trend_key, trending_score, is_sample',
      )
      .eq('id', productC)
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: productC, gas: 0, pass: 0, counted: 0, gas_share: null, wilson: 0 });
    const constants = await adminClient(server).rpc('votes_ranking_constants');
    expect(constants.data).toMatchObject({ wilson_z: 1.959964, trending_half_life_hours: 48, ring_size: 4 });
  });
});

describe('Trending checked from public data (decision 208)', () => {
  it('the published score lies within the bounds the published per-day counts give', async () => {
    const [product] = await sql<{ id: string }>(
      `insert into public.products (name, category, strain_type) values ('Delta Trend', 'Flower', 'hybrid') returning id`,
    );
    const id = product?.id as string;
    // Counted votes at known times over three UTC days (written directly, as the vote trigger books them).
    const ages = [
      { hours: 5, type: 'gas' },
      { hours: 30, type: 'gas' },
      { hours: 31, type: 'pass' },
      { hours: 60, type: 'gas' },
    ];
    for (const [index, age] of ages.entries()) {
      const voter = await signedInUser(server, { email: `trend-${index}-${Date.now()}@example.com` });
      await sql(
        `insert into public.product_votes (user_id, product_id, vote_type, status, created_at, updated_at)
         values ($1, $2, $3, 'counted', now() - make_interval(hours => $4), now() - make_interval(hours => $4))`,
        [voter.id, id, age.type, age.hours],
      );
    }
    // What a visitor reads: the per-day counts and the score, no voter.
    const anon = anonClient(server);
    const days = await anon.from('product_vote_days').select('day, gas, pass').eq('product_id', id);
    expect(days.error).toBeNull();
    expect((days.data ?? []).reduce((sum, day) => sum + day.gas + day.pass, 0)).toBe(4);
    const ranked = await anon.from('product_rankings').select('trending_score').eq('id', id).single();
    expect(ranked.error).toBeNull();
    const score = ranked.data?.trending_score as number;
    // The exact score from the vote times (not public), and the public bounds around it.
    const exact = trendingScore(ages.map((age) => ({ gas: age.type === 'gas', ageHours: age.hours })));
    expect(score).toBeCloseTo(exact, 3);
    const [low, high] = trendingBounds(days.data ?? [], new Date());
    expect(score).toBeGreaterThanOrEqual(low - 1e-6);
    expect(score).toBeLessThanOrEqual(high + 1e-6);
    expect(high - low).toBeGreaterThan(0);
  });
});

describe('votes', () => {
  it('a young account votes pending; once old enough the vote counts; change and take back', async () => {
    const m = await member('voter');
    const cast = await m.client
      .from('product_votes')
      .insert({ user_id: m.id, product_id: productA, vote_type: 'gas' })
      .select('id, status, vote_type')
      .single();
    expect(cast.error).toBeNull();
    expect(cast.data).toMatchObject({ status: 'pending', vote_type: 'gas' });
    expect(await tally(productA)).toMatchObject({ gas: 0, pending: 1 });

    await backdate(m.id, 25);
    await sql('select private.votes_housekeeping()');
    expect(await tally(productA)).toMatchObject({ gas: 1, pass: 0, pending: 0, counted: 1 });

    const changed = await m.client
      .from('product_votes')
      .update({ vote_type: 'pass' })
      .eq('product_id', productA)
      .select('vote_type, status')
      .single();
    expect(changed.data).toEqual({ vote_type: 'pass', status: 'counted' });
    expect(await tally(productA)).toMatchObject({ gas: 0, pass: 1 });
    const days = await sql<{ gas: number; pass: number }>(
      'select sum(gas)::int as gas, sum(pass)::int as pass from public.product_vote_days where product_id = $1',
      [productA],
    );
    expect(days).toEqual([{ gas: 0, pass: 1 }]);

    const removed = await m.client.from('product_votes').delete().eq('product_id', productA);
    expect(removed.error).toBeNull();
    expect(await tally(productA)).toMatchObject({ gas: 0, pass: 0, pending: 0, counted: 0 });
  });

  it('an old account counts at once; one vote per member per product', async () => {
    const m = await member('old');
    await backdate(m.id, 48);
    const first = await m.client.from('product_votes').insert({ product_id: productB, vote_type: 'gas' });
    expect(first.error).toBeNull();
    expect(await tally(productB)).toMatchObject({ gas: 1, counted: 1 });
    const second = await m.client.from('product_votes').insert({ product_id: productB, vote_type: 'pass' });
    expect(second.error?.code).toBe('23505');
    expect(await tally(productB)).toMatchObject({ gas: 1, pass: 0 });
  });

  it('refuses bad votes with a clear error', async () => {
    const m = await member('bad');
    const other = await member('other');
    const unknown = await m.client
      .from('product_votes')
      .insert({ product_id: 'no-such-product', vote_type: 'gas' });
    expect(unknown.error).toMatchObject({ code: '23503', message: 'There is no product with this id.' });

    const meh = await m.client.from('product_votes').insert({ product_id: productC, vote_type: 'meh' });
    expect(meh.error?.code).toBe('23514');
    expect(meh.error?.message).toContain('product_votes_vote_type_check');

    const forOther = await m.client
      .from('product_votes')
      .insert({ user_id: other.id, product_id: productC, vote_type: 'gas' });
    expect(forOther.error).toMatchObject({ code: '42501', message: 'You can only vote as yourself.' });

    const script = await m.client
      .from('product_votes')
      .insert({ product_id: '<script>alert(1)</script>', vote_type: 'gas' });
    expect(script.error?.code).toBe('23514');
    expect(script.error?.message).toContain('product_votes_product_id_format');

    const anon = anonClient(server);
    const anonVote = await anon.from('product_votes').insert({ product_id: productC, vote_type: 'gas' });
    expect(anonVote.error?.code).toBe('42501');

    // The member cannot choose how their vote counts, nor write tallies or products.
    await m.client
      .from('product_votes')
      .insert({ product_id: productC, vote_type: 'gas', status: 'counted' });
    const [own] = await sql<{ status: string }>(
      'select status from public.product_votes where user_id = $1 and product_id = $2',
      [m.id, productC],
    );
    expect(own?.status).toBe('pending');
    const promote = await m.client
      .from('product_votes')
      .update({ status: 'counted' })
      .eq('product_id', productC);
    expect(promote.error).toMatchObject({
      code: '42501',
      message: 'product_votes.status is set by the server',
    });
    const otherChange = await other.client
      .from('product_votes')
      .update({ vote_type: 'pass' })
      .eq('user_id', m.id)
      .select();
    expect(otherChange.data).toEqual([]);
    const otherDelete = await other.client.from('product_votes').delete().eq('user_id', m.id).select();
    expect(otherDelete.data).toEqual([]);
    const forge = await m.client
      .from('product_tallies')
      .update({ gas: 1000 })
      .eq('product_id', productC)
      .select();
    expect(forge.data ?? []).toEqual([]);
    expect(await tally(productC)).toMatchObject({ gas: 0 });
    const product = await m.client.from('products').insert({ name: 'Mine', category: 'Flower' });
    expect(product.error?.code).toBe('42501');
    const archive = await m.client
      .from('products')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', productC)
      .select();
    expect(archive.data).toEqual([]);
  });

  it('refuses votes from accounts whose email is not confirmed', async () => {
    const { data } = await adminClient(server).auth.admin.createUser({
      email: `unconfirmed-${Date.now()}@example.com`,
      password: PASSWORD,
      email_confirm: false,
    });
    const token = await userToken(server, data.user?.id ?? '');
    const client = createClient(server.url, server.anonKey, {
      auth: { persistSession: false },
      realtime: { transport: WebSocket as never },
      global: { headers: { authorization: `Bearer ${token}` } },
    });
    const vote = await client.from('product_votes').insert({ product_id: productC, vote_type: 'gas' });
    expect(vote.error).toMatchObject({ code: '42501', message: 'Confirm your email address before voting.' });
  });

  it('archived products take no votes and leave the lists', async () => {
    const [archived] = await sql<{ id: string }>(
      `insert into public.products (name, category, archived_at) values ('Old', 'Other', now()) returning id`,
    );
    const m = await member('late');
    const vote = await m.client.from('product_votes').insert({ product_id: archived?.id, vote_type: 'gas' });
    expect(vote.error?.message).toBe('This product is archived: voting on it has closed.');
    const list = await m.client
      .from('product_rankings')
      .select('id')
      .eq('id', archived?.id ?? '');
    expect(list.data).toEqual([]);
  });
});

describe('live tallies (decision 156)', () => {
  type Sent = { product_id: string; gas: number; pass: number; pending: number; held: number; trend: number };

  /** A visitor's page following the public topic; `seen` lists what arrived for `productId`. */
  async function follow(productId: string) {
    const visitor = createClient(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
    const seen: Sent[] = [];
    const channel = visitor.channel('product-tallies').on('broadcast', { event: 'tallies' }, (message) => {
      for (const row of (message.payload as { tallies: Sent[] }).tallies) {
        if (row.product_id === productId) seen.push(row);
      }
    });
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve();
        else if (status !== 'CLOSED') reject(error ?? new Error(status));
      }),
    );
    const until = async (check: (last: Sent | undefined) => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!check(seen.at(-1))) {
        if (Date.now() > deadline) throw new Error(`no matching tally; seen ${JSON.stringify(seen)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return seen.at(-1) as Sent;
    };
    return { seen, until, close: () => visitor.removeAllChannels() };
  }

  it('a visitor sees a vote, its change and its removal on the public topic', async () => {
    const [product] = await sql<{ id: string }>(
      `insert into public.products (name, category, strain_type) values ('Live One', 'Flower', 'hybrid') returning id`,
    );
    const page = await follow(product?.id ?? '');
    try {
      const m = await member('live');
      await backdate(m.id, 48);
      expect(
        (await m.client.from('product_votes').insert({ product_id: product?.id, vote_type: 'gas' })).error,
      ).toBeNull();
      expect(await page.until((last) => last?.gas === 1)).toMatchObject({
        gas: 1,
        pass: 0,
        pending: 0,
        held: 0,
      });
      const changed = await m.client
        .from('product_votes')
        .update({ vote_type: 'pass' })
        .eq('product_id', product?.id);
      expect(changed.error).toBeNull();
      expect(await page.until((last) => last?.pass === 1)).toMatchObject({ gas: 0, pass: 1 });
      const removed = await m.client.from('product_votes').delete().eq('product_id', product?.id);
      expect(removed.error).toBeNull();
      expect(await page.until((last) => last?.pass === 0)).toMatchObject({ gas: 0, pass: 0 });
      // What was sent is what the database holds, and nothing is left marked.
      const [row] = await sql<{ live_pending: boolean; trend: number }>(
        'select live_pending, trend from public.product_tallies where product_id = $1',
        [product?.id],
      );
      expect(row?.live_pending).toBe(false);
      expect(page.seen.at(-1)?.trend).toBeCloseTo(row?.trend ?? Number.NaN, 9);
    } finally {
      await page.close();
    }
  });

  it('a burst of votes arrives coalesced, each change once, ending at the database’s tally', async () => {
    const [product] = await sql<{ id: string }>(
      `insert into public.products (name, category, strain_type) values ('Live Burst', 'Flower', 'hybrid') returning id`,
    );
    const page = await follow(product?.id ?? '');
    try {
      const members = await Promise.all(Array.from({ length: 6 }, () => member('burst')));
      for (const m of members) await backdate(m.id, 48);
      const results = await Promise.all(
        members.map((m) =>
          m.client.from('product_votes').insert({ product_id: product?.id, vote_type: 'gas' }),
        ),
      );
      expect(results.map((result) => result.error)).toEqual(members.map(() => null));
      await page.until((last) => last?.gas === 6);
      // Gas only grows in this burst, so a change sent twice would show as a repeated value.
      const gas = page.seen.map((row) => row.gas);
      expect(gas).toEqual([...new Set(gas)].sort((a, b) => a - b));
      expect(gas.length).toBeLessThanOrEqual(6);
      expect(await tally(product?.id ?? '')).toMatchObject({ gas: 6, pass: 0, counted: 6 });
      // Nothing is marked any more: a direct run finds nothing to send for this product.
      await sql('select private.votes_broadcast_tallies()');
      const [row] = await sql<{ live_pending: boolean }>(
        'select live_pending from public.product_tallies where product_id = $1',
        [product?.id],
      );
      expect(row?.live_pending).toBe(false);
    } finally {
      await page.close();
    }
  });
  it('a vote never waits on its brand’s row; the brand’s tallies follow within the next run', async () => {
    const [brand] = await sql<{ id: string }>(
      `insert into public.brands (name, slug) values ('Live Brand', 'live-brand-' || floor(random() * 1e9)::text) returning id`,
    );
    const products = await sql<{ id: string }>(
      `insert into public.products (name, category, brand_id) values ('Live Brand One', 'Flower', $1), ('Live Brand Two', 'Edibles', $1)
       returning id`,
      [brand?.id],
    );
    const [gasVoter, passVoter] = await Promise.all([member('brand-live'), member('brand-live')]);
    for (const m of [gasVoter, passVoter]) await backdate(m?.id ?? '', 48);
    const brandTally = async () =>
      (
        await sql<{ products: number; gas: number; pass: number }>(
          'select products, gas, pass from public.brand_tallies where brand_id = $1',
          [brand?.id],
        )
      )[0];
    const vote = () =>
      Promise.all([
        gasVoter?.client.from('product_votes').insert({ product_id: products[0]?.id, vote_type: 'gas' }),
        passVoter?.client.from('product_votes').insert({ product_id: products[1]?.id, vote_type: 'pass' }),
      ]);
    if (server.db.mode === 'postgres') {
      // Another transaction holds the brand's row: both votes still complete (before decision 159 each
      // vote updated that row and would have waited here until its statement timed out). PGlite runs
      // one transaction at a time, so no row lock can be held against a vote there.
      await server.db.transaction(async (tx) => {
        await tx.query('select 1 from public.brand_tallies where brand_id = $1 for update', [brand?.id]);
        expect((await vote()).map((result) => result?.error)).toEqual([null, null]);
      });
    } else {
      expect((await vote()).map((result) => result?.error)).toEqual([null, null]);
    }
    const deadline = Date.now() + 10_000;
    for (let tally = await brandTally(); tally?.gas !== 1 || tally?.pass !== 1; tally = await brandTally()) {
      if (Date.now() > deadline) throw new Error(`brand tally stayed ${JSON.stringify(tally)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await brandTally()).toEqual({ products: 2, gas: 1, pass: 1 });
    // Taking a vote back is followed the same way.
    await passVoter?.client.from('product_votes').delete().eq('product_id', products[1]?.id);
    await sql('select private.votes_broadcast_tallies()');
    expect(await brandTally()).toEqual({ products: 2, gas: 1, pass: 0 });
  });

  it('a vote that changes no brand sum (a young account’s, pending) leaves the brand’s row unwritten', async () => {
    const [brand] = await sql<{ id: string }>(
      `insert into public.brands (name, slug) values ('Quiet Brand', 'quiet-brand-' || floor(random() * 1e9)::text) returning id`,
    );
    const [product] = await sql<{ id: string }>(
      `insert into public.products (name, category, brand_id) values ('Quiet Product', 'Flower', $1) returning id`,
      [brand?.id],
    );
    const version = async () =>
      (
        await sql<{ xmin: string; products: number; gas: number }>(
          'select xmin::text, products, gas from public.brand_tallies where brand_id = $1',
          [brand?.id],
        )
      )[0];
    await sql('select private.votes_broadcast_tallies()');
    const before = await version();
    const young = await member('quiet'); // not backdated: the vote is pending
    const cast = await young.client
      .from('product_votes')
      .insert({ product_id: product?.id, vote_type: 'gas' })
      .select('status')
      .single();
    expect(cast.data).toEqual({ status: 'pending' });
    expect(await tally(product?.id ?? '')).toMatchObject({ gas: 0, pending: 1 });
    await sql('select private.votes_broadcast_tallies()');
    expect(await version()).toEqual(before);
    // A counted vote changes the sum, and the row.
    const counted = await member('quiet');
    await backdate(counted.id, 48);
    await counted.client.from('product_votes').insert({ product_id: product?.id, vote_type: 'gas' });
    await sql('select private.votes_broadcast_tallies()');
    const after = await version();
    expect(after).toMatchObject({ products: 1, gas: 1 });
    expect(after?.xmin).not.toBe(before?.xmin);
  });

  it('a product moving between brands locks their rows in the order the live-tallies run does (no deadlock)', async () => {
    const brands = await sql<{ id: string }>(
      `insert into public.brands (name, slug)
       select 'Order Brand ' || n, 'order-brand-' || n || '-' || floor(random() * 1e9)::text
       from generate_series(1, 2) n
       returning id`,
    );
    const [low, high] = brands.map((brand) => brand.id).sort();
    const [product] = await sql<{ id: string }>(
      `insert into public.products (name, category, brand_id) values ('Moving Product', 'Flower', $1) returning id`,
      [high],
    );
    const counts = async () =>
      Object.fromEntries(
        (
          await sql<{ brand_id: string; products: number }>(
            'select brand_id, products from public.brand_tallies where brand_id = any ($1) order by brand_id',
            [[low, high]],
          )
        ).map((row) => [row.brand_id === low ? 'low' : 'high', row.products]),
      );
    expect(await counts()).toEqual({ low: 0, high: 1 });
    const move = () => sql('update public.products set brand_id = $1 where id = $2', [low, product?.id]);
    if (server.db.mode === 'postgres') {
      // The live-tallies run's order: it holds the lower brand's row and is about to take the higher's.
      // The move (from the higher brand to the lower) must not hold the higher one meanwhile: before,
      // it locked the brand it left first, and one of the two was aborted as a deadlock.
      let moved: Promise<unknown> = Promise.resolve(null);
      await server.db.transaction(async (tx) => {
        await tx.query('select 1 from public.brand_tallies where brand_id = $1 for update', [low]);
        moved = move().then(
          () => null,
          (error: unknown) => error,
        );
        const waiting = async () =>
          (
            await sql<{ waiting: number }>(
              `select count(*)::int as waiting from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock' and query like 'update public.products%'`,
            )
          )[0]?.waiting;
        const deadline = Date.now() + 10_000;
        while ((await waiting()) !== 1) {
          if (Date.now() > deadline) throw new Error('the move never waited on the lower brand’s row');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await tx.query('select 1 from public.brand_tallies where brand_id = $1 for update', [high]);
      });
      // Released by the commit, the move completes.
      expect(await moved).toBeNull();
    } else {
      await move();
    }
    expect(await counts()).toEqual({ low: 1, high: 0 });
  });
});

describe('ring detection', () => {
  it('20 accounts created together voting Gas from one address are held and do not move the rank', async () => {
    const [ringTarget] = await sql<{ id: string }>(
      `insert into public.products (name, category) values ('Ring Target', 'Flower') returning id`,
    );
    const target = ringTarget?.id ?? '';
    // Two honest members give two other products a counted Gas each; the target has none.
    for (const product of [productB, productC]) {
      const honest = await member('honest');
      await backdate(honest.id, 72);
      await honest.client.from('product_votes').insert({ product_id: product, vote_type: 'gas' });
    }
    const topIds = async () =>
      (
        await adminClient(server)
          .from('product_rankings')
          .select('id')
          .order('wilson', { ascending: false })
          .order('counted', { ascending: false })
          .order('id')
      ).data?.map((row) => row.id as string) ?? [];
    const before = await topIds();

    const ring = [];
    for (let i = 0; i < 20; i += 1) ring.push(await member('ring', '203.0.113.7'));
    // Accounts made within minutes of each other two days ago: old enough to count on their own.
    for (const [i, m] of ring.entries()) {
      await sql(
        `update auth.users set created_at = now() - interval '48 hours' + make_interval(mins => $2) where id = $1`,
        [m.id, i],
      );
    }
    for (const m of ring) {
      const { error } = await m.client.from('product_votes').insert({ product_id: target, vote_type: 'gas' });
      expect(error).toBeNull();
    }
    expect(await tally(target)).toMatchObject({ gas: 0, counted: 0, held: 20 });
    expect(await topIds()).toEqual(before);
    const statuses = await sql<{ status: string; n: number }>(
      'select status, count(*)::int as n from public.product_votes where product_id = $1 group by status',
      [target],
    );
    expect(statuses).toEqual([{ status: 'held', n: 20 }]);
    // Stored signals: a hash, never the address.
    const signals = await sql<{ address_hash: string }>(
      'select distinct address_hash from private.votes_signals where product_id = $1',
      [target],
    );
    expect(signals).toHaveLength(1);
    expect(signals[0]?.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(signals[0]?.address_hash).not.toContain('203.0.113.7');

    // The queue holds one item for the product; a member may not act on it, an admin releases it.
    const [item] = await sql<{ id: string; votes: number }>(
      `select id, votes from public.moderation_items where kind = 'held_votes' and product_id = $1`,
      [target],
    );
    expect(item?.votes).toBe(20);
    const notAdmin = await ring[0]?.client.rpc('moderate_held_votes', {
      item_id: item?.id,
      action: 'release',
    });
    expect(notAdmin?.error).toMatchObject({
      code: '42501',
      message: 'Unauthorized: only admins can moderate.',
    });
    const admin = await member('admin');
    await sql(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [admin.id]);
    const queue = await admin.client
      .from('moderation_items')
      .select('id, kind, votes')
      .eq('product_id', target);
    expect(queue.data).toEqual([{ id: item?.id, kind: 'held_votes', votes: 20 }]);
    const released = await admin.client.rpc('moderate_held_votes', { item_id: item?.id, action: 'release' });
    expect(released.error).toBeNull();
    expect(released.data).toMatchObject({ status: 'resolved', resolution: 'released', votes: 20 });
    expect(await tally(target)).toMatchObject({ gas: 20, held: 0 });
    const again = await admin.client.rpc('moderate_held_votes', { item_id: item?.id, action: 'reject' });
    expect(again.error?.message).toBe('These votes have already been handled.');
  }, 180_000);

  it('VOTE_RING_DETECTION=false and VOTE_MIN_ACCOUNT_AGE_HOURS reach the database', async () => {
    const other = await startTestServer({ VOTE_RING_DETECTION: 'false', VOTE_MIN_ACCOUNT_AGE_HOURS: '0' });
    try {
      const rows = await other.db.query<{ age: string; ring: boolean }>(
        'select min_account_age::text as age, ring_detection as ring from private.votes_settings',
      );
      expect(rows.rows).toEqual([{ age: '00:00:00', ring: false }]);
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe('comments', () => {
  it('write, edit (marked), like, refuse markup and oversize; others cannot edit or delete', async () => {
    const author = await member('author');
    const other = await member('reader');
    const posted = await author.client
      .from('product_comments')
      .insert({ product_id: productA, content: 'Smooth & "tasty" <b>really</b>' })
      .select('id, content, edited_at, likes')
      .single();
    expect(posted.error).toBeNull();
    expect(posted.data).toMatchObject({
      content: 'Smooth & "tasty" <b>really</b>',
      edited_at: null,
      likes: 0,
    });
    const id = posted.data?.id as string;

    const script = await author.client
      .from('product_comments')
      .insert({ product_id: productA, content: '<script>alert(1)</script>' });
    expect(script.error?.code).toBe('23514');
    const huge = await author.client
      .from('product_comments')
      .insert({ product_id: productA, content: 'x'.repeat(2001) });
    expect(huge.error?.message).toContain('product_comments_content_length');
    const unknown = await author.client
      .from('product_comments')
      .insert({ product_id: 'nope', content: 'hi' });
    expect(unknown.error?.message).toBe('There is no product with this id.');

    const edited = await author.client
      .from('product_comments')
      .update({ content: 'Smooth, edited' })
      .eq('id', id)
      .select('content, edited_at')
      .single();
    expect(edited.data?.content).toBe('Smooth, edited');
    expect(edited.data?.edited_at).not.toBeNull();
    const forgeLikes = await author.client.from('product_comments').update({ likes: 99 }).eq('id', id);
    expect(forgeLikes.error?.code).toBe('42501');

    const hijack = await other.client
      .from('product_comments')
      .update({ content: 'mine now' })
      .eq('id', id)
      .select();
    expect(hijack.data).toEqual([]);
    const wipe = await other.client.from('product_comments').delete().eq('id', id).select();
    expect(wipe.data).toEqual([]);

    expect((await other.client.from('product_comment_likes').insert({ comment_id: id })).error).toBeNull();
    const [liked] = await sql<{ likes: number }>('select likes from public.product_comments where id = $1', [
      id,
    ]);
    expect(liked?.likes).toBe(1);
    expect((await other.client.from('product_comment_likes').delete().eq('comment_id', id)).error).toBeNull();
    const [unliked] = await sql<{ likes: number }>(
      'select likes from public.product_comments where id = $1',
      [id],
    );
    expect(unliked?.likes).toBe(0);
  });

  it('reports go to the queue; admins hide, restore and dismiss', async () => {
    const author = await member('author');
    const reporter = await member('reporter');
    const admin = await member('moderator');
    await sql(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [admin.id]);
    const { data: comment } = await author.client
      .from('product_comments')
      .insert({ product_id: productB, content: 'Buy followers at example.com' })
      .select('id')
      .single();
    const commentId = comment?.id as string;

    const own = await author.client
      .from('product_comment_reports')
      .insert({ comment_id: commentId, reason: 'mine' });
    expect(own.error?.message).toBe('You cannot report your own comment.');
    const report = await reporter.client
      .from('product_comment_reports')
      .insert({ comment_id: commentId, reason: 'spam' });
    expect(report.error).toBeNull();
    const twice = await reporter.client
      .from('product_comment_reports')
      .insert({ comment_id: commentId, reason: 'spam' });
    expect(twice.error?.code).toBe('23505');
    const spoof = await reporter.client
      .from('product_comment_reports')
      .insert({ comment_id: commentId, reporter_id: author.id });
    expect(spoof.error?.code).toBe('42501');

    expect((await reporter.client.from('moderation_items').select('id')).data).toEqual([]);
    const { data: items } = await admin.client
      .from('moderation_items')
      .select('id, kind, reports, status')
      .eq('comment_id', commentId);
    expect(items).toEqual([{ id: expect.any(String), kind: 'comment_report', reports: 1, status: 'open' }]);
    const itemId = items?.[0]?.id as string;

    const byMember = await reporter.client.rpc('moderate_comment', { item_id: itemId, action: 'hide' });
    expect(byMember.error?.code).toBe('42501');
    const bad = await admin.client.rpc('moderate_comment', { item_id: itemId, action: 'explode' });
    expect(bad.error?.message).toBe('action must be hide, restore or dismiss');

    const hidden = await admin.client.rpc('moderate_comment', { item_id: itemId, action: 'hide' });
    expect(hidden.data).toMatchObject({ resolution: 'hidden', status: 'resolved' });
    const anon = anonClient(server);
    // Everyone, the author included, sees a placeholder instead of the text; the author can no longer edit it.
    const seen = await anon
      .from('product_comments')
      .select('content, hidden_at')
      .eq('id', commentId)
      .single();
    expect(seen.data?.content).toBe('This comment was hidden by a moderator.');
    expect(seen.data?.hidden_at).not.toBeNull();
    const mine = await author.client.from('product_comments').select('content').eq('id', commentId).single();
    expect(mine.data?.content).toBe('This comment was hidden by a moderator.');
    const edit = await author.client
      .from('product_comments')
      .update({ content: 'sorry' })
      .eq('id', commentId);
    expect(edit.error?.message).toBe('A moderator has hidden this comment: it can no longer be edited.');

    const restored = await admin.client.rpc('moderate_comment', { item_id: itemId, action: 'restore' });
    expect(restored.data).toMatchObject({ resolution: 'restored' });
    expect(
      (await anon.from('product_comments').select('content, hidden_at').eq('id', commentId)).data,
    ).toEqual([{ content: 'Buy followers at example.com', hidden_at: null }]);
    // Hiding and restoring is no edit.
    const [after] = await sql<{ edited_at: string | null }>(
      'select edited_at from public.product_comments where id = $1',
      [commentId],
    );
    expect(after?.edited_at).toBeNull();

    // A new report opens a new item, which an admin dismisses.
    const third = await member('third');
    await third.client.from('product_comment_reports').insert({ comment_id: commentId });
    const { data: reopened } = await admin.client
      .from('moderation_items')
      .select('id')
      .eq('comment_id', commentId)
      .eq('status', 'open');
    const dismissed = await admin.client.rpc('moderate_comment', {
      item_id: reopened?.[0]?.id,
      action: 'dismiss',
    });
    expect(dismissed.data).toMatchObject({ resolution: 'dismissed' });
    expect((await anon.from('product_comments').select('hidden_at').eq('id', commentId)).data).toEqual([
      { hidden_at: null },
    ]);
  });
});

describe('catalogue and samples', () => {
  it('write quotas cover every member-writable Pass or Gas table', async () => {
    const rows = await sql<{ relation: string }>(
      'select relation::text from private.write_quotas order by 1',
    );
    const names = rows.map((row) => row.relation);
    for (const table of [
      'product_votes',
      'product_comments',
      'product_comment_likes',
      'product_comment_reports',
    ]) {
      expect(names).toContain(`${table}`);
    }
  });

  it('samples load only into an empty catalogue, are labelled, and leave when a real product arrives', async () => {
    const other = await startTestServer();
    try {
      const q = async (text: string) => (await other.db.query<Record<string, unknown>>(text)).rows;
      await q('select private.votes_samples(false)');
      await q('select private.votes_samples(true)');
      await q('select private.votes_samples(true)');
      const samples = await q('select name, is_sample from public.products');
      expect(samples).toHaveLength(6);
      for (const row of samples) {
        expect(row.is_sample).toBe(true);
        expect(String(row.name)).toMatch(/^Sample product: /);
      }
      const api = await adminClient(other)
        .from('product_rankings')
        .select('is_sample, brand_name')
        .limit(1)
        .single();
      expect(api.data).toEqual({ is_sample: true, brand_name: 'Sample Brand (example)' });
      await q(`insert into public.products (name, category) values ('Real One', 'Flower')`);
      expect(await q('select name from public.products')).toEqual([{ name: 'Real One' }]);
      expect(await q('select name from public.brands where is_sample')).toEqual([]);
      await q('select private.votes_samples(true)');
      expect(await q('select count(*)::int as n from public.products')).toEqual([{ n: 1 }]);
    } finally {
      await other.close();
    }
  }, 120_000);
});
