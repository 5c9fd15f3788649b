// @databases: both — the guards and each area's retirement are SQL triggers and functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * The sample-retirement rule (decision 175, issue 34 item 2): on an install started with samples,
 * nobody can attach their own rows to a sample (the guards), admins see what each area's retirement
 * will remove, and real content arriving in every area retires that area's samples only, without
 * deleting or unlinking anything of any member — not even rows attached to samples before the guards
 * existed (simulated with the guards switched off), which keep their samples alive as archived rows.
 */

let server: TestServer;
let admin: SignedInUser;
let alice: SignedInUser;
let bruno: SignedInUser;

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;
const one = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await sql<T>(text, params))[0] as T;

const GUARDED_TABLES = [
  'product_votes',
  'product_comments',
  'products',
  'brand_claims',
  'scammer_reports',
  'saved_articles',
];

beforeAll(async () => {
  // The real start-up path: DEMO_CONTENT=true loads every area's samples.
  server = await startTestServer({ ...RELAXED_LIMITS, DEMO_CONTENT: 'true' });
  [admin, alice, bruno] = await Promise.all([
    signedInUser(server, { admin: true, fullName: 'Ada Admin' }),
    signedInUser(server, { fullName: 'Alice Member' }),
    signedInUser(server, { fullName: 'Bruno Member' }),
  ]);
}, 120_000);
afterAll(() => server?.close());

/**
 * Every row that names a member (every column referencing auth.users, found in the catalogue, so a
 * later table is covered without being named here), keyed by table and primary key.
 */
async function memberRows(userIds: string[]): Promise<Set<string>> {
  const refs = await sql<{ tbl: string; col: string; pk: string }>(
    `select format('%I.%I', n.nspname, c.relname) as tbl, a.attname as col,
            (select string_agg(format('%I', pa.attname), ', ' order by pa.attnum)
               from pg_index i join pg_attribute pa on pa.attrelid = i.indrelid and pa.attnum = any (i.indkey)
              where i.indrelid = c.oid and i.indisprimary) as pk
       from pg_constraint f
       join pg_class c on c.oid = f.conrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = f.conkey[1]
      where f.contype = 'f' and f.confrelid = 'auth.users'::regclass and n.nspname in ('public', 'private')
        and array_length(f.conkey, 1) = 1`,
  );
  expect(refs.map((ref) => ref.tbl)).toEqual(
    expect.arrayContaining(['public.product_votes', 'public.product_comments', 'public.brand_claims']),
  );
  const keys = new Set<string>();
  for (const ref of refs) {
    if (!ref.pk) continue;
    const rows = await sql<{ key: string }>(
      `select concat_ws('|', ${ref.pk})::text as key from ${ref.tbl} where ${ref.col} = any ($1::uuid[])`,
      [userIds],
    );
    for (const row of rows) keys.add(`${ref.tbl}:${row.key}`);
  }
  return keys;
}

async function expectNothingLost(before: Set<string>, userIds: string[]) {
  const after = await memberRows(userIds);
  expect([...before].filter((key) => !after.has(key))).toEqual([]);
}

async function retirementPlan(): Promise<Record<string, { retires_when: string; items: Item[] }>> {
  const { data, error } = await admin.client.rpc('sample_retirement');
  expect(error).toBeNull();
  return Object.fromEntries(
    (data as { area: string; retires_when: string; items: Item[] }[]).map((row) => [row.area, row]),
  );
}
interface Item {
  kind: string;
  name: string;
  kept: boolean;
}

describe('the sample-retirement rule (decision 175)', () => {
  it('samples refuse every member row, retire per area, and take nothing of any member with them', async () => {
    const everyone = [admin.id, alice.id, bruno.id];
    // The samples are there, in every area.
    const sampleProducts = await sql<{ id: string; name: string }>(
      'select id, name from public.products where is_sample order by name',
    );
    expect(sampleProducts).toHaveLength(6);
    const directoryBrands = await sql<{ id: string; slug: string }>(
      `select id, slug from public.brands where is_sample and slug like 'sample-%-brand' order by slug`,
    );
    expect(directoryBrands).toHaveLength(4);
    const catalogueBrand = await one<{ id: string }>(
      `select id from public.brands where slug = 'sample-brand-example' and is_sample`,
    );
    const sampleArticle = await one<{ url: string; title: string }>(
      'select url, title from public.news_articles where is_sample order by url limit 1',
    );
    expect(await one('select count(*)::int as n from public.market_closes where is_sample')).toMatchObject({
      n: expect.any(Number),
    });
    const [voted, quiet] = sampleProducts as [{ id: string; name: string }, { id: string; name: string }];
    const [claimed, reported, untouched] = directoryBrands as unknown as [
      { id: string },
      { id: string },
      { id: string },
    ];

    // --- The guards: members (and admins) cannot attach their rows to a sample. ---
    for (const member of [alice, admin]) {
      const vote = await member.client
        .from('product_votes')
        .insert({ user_id: member.id, product_id: quiet.id, vote_type: 'gas' });
      expect(vote.error?.code).toBe('42501');
      expect(vote.error?.message).toBe(
        'Sample products cannot be voted on: they are examples, deleted when the first real product is added.',
      );
      const comment = await member.client
        .from('product_comments')
        .insert({ user_id: member.id, product_id: quiet.id, content: 'Looks great!' });
      expect(comment.error?.code).toBe('42501');
      expect(comment.error?.message).toMatch(/^Sample products cannot be commented on: /);
      const claim = await member.client
        .from('brand_claims')
        .insert({ user_id: member.id, brand_id: untouched.id, role_title: 'Owner' });
      expect(claim.error?.code).toBe('42501');
      expect(claim.error?.message).toMatch(/^Sample brands cannot be claimed: /);
      const saved = await member.client.from('saved_articles').insert({
        user_id: member.id,
        article_title: sampleArticle.title,
        article_url: sampleArticle.url,
      });
      expect(saved.error?.code).toBe('42501');
      expect(saved.error?.message).toMatch(/^Sample articles cannot be saved: /);
    }
    // A member's report (submitted as themselves) cannot be linked to a sample brand by an admin.
    const report = await alice.client
      .from('scammer_reports')
      .insert({
        reporter_user_id: alice.id,
        truth_confirmed_at: new Date().toISOString(),
        scammer_name: 'Fake Dispensary',
        scammer_description: 'Took payment and never shipped anything.',
        incident_details: 'Paid by bank transfer for an order that never arrived, then was blocked.',
      })
      .select('id')
      .single();
    expect(report.error).toBeNull();
    const reportId = report.data?.id as string;
    const linked = await admin.client
      .from('scammer_reports')
      .update({ brand_id: untouched.id })
      .eq('id', reportId);
    expect(linked.error?.code).toBe('42501');
    expect(linked.error?.message).toMatch(/^A report cannot name a sample brand: /);
    // A real product cannot belong to a sample brand (it would lose its brand when the samples go).
    const onSample = await admin.client
      .from('products')
      .insert({ name: 'Real On Sample Brand', category: 'Flower', brand_id: catalogueBrand.id });
    expect(onSample.error?.code).toBe('42501');
    expect(onSample.error?.message).toMatch(/^A real product cannot belong to a sample brand: /);
    // The same refusals for the server's own writes (triggers, not policies).
    await expect(
      sql(`insert into public.product_votes (user_id, product_id, vote_type) values ($1, $2, 'gas')`, [
        bruno.id,
        quiet.id,
      ]),
    ).rejects.toMatchObject({ code: '42501' });
    expect(await one('select count(*)::int as n from public.products where is_sample')).toEqual({ n: 6 });

    // --- Rows attached before the guards existed (an install from before this rule). ---
    for (const table of GUARDED_TABLES)
      await sql(`alter table public.${table} disable trigger samples_guard`);
    try {
      await sql(
        `insert into public.product_votes (user_id, product_id, vote_type) values ($1, $3, 'gas'), ($2, $3, 'pass')`,
        [admin.id, alice.id, voted.id],
      );
      await sql(
        `insert into public.product_comments (user_id, product_id, content)
         select $1, $2, 'Admin comment ' || g from generate_series(1, 4) g`,
        [admin.id, voted.id],
      );
      await sql(
        `insert into public.brand_claims (user_id, brand_id, role_title) values ($1, $2, 'Founder')`,
        [bruno.id, claimed.id],
      );
      await sql(`update public.scammer_reports set brand_id = $2, status = 'under_review' where id = $1`, [
        reportId,
        reported.id,
      ]);
      await sql(`update public.scammer_reports set status = 'published' where id = $1`, [reportId]);
    } finally {
      for (const table of GUARDED_TABLES)
        await sql(`alter table public.${table} enable trigger samples_guard`);
    }

    // --- Admins see what each area's retirement removes, and when, before it happens. ---
    const member = await alice.client.rpc('sample_retirement');
    expect(member.error?.code).toBe('42501');
    const plan = await retirementPlan();
    expect(Object.keys(plan).sort()).toEqual(['brands', 'market', 'news', 'products']);
    expect(plan.products?.retires_when).toBe('when the first real product is added');
    expect(plan.products?.items).toHaveLength(7);
    expect(plan.products?.items.filter((item) => item.kept).map((item) => item.name)).toEqual([
      voted.name,
      'Sample Brand (example)',
    ]);
    expect(plan.brands?.retires_when).toBe('when the first real brand is added');
    expect(plan.brands?.items.filter((item) => item.kept)).toHaveLength(2);
    expect(plan.news?.items).toHaveLength(6);
    expect(plan.market?.items[0]?.name).toMatch(/^Demonstration series \(\d+ closes\)$/);

    const before = await memberRows(everyone);
    expect(before.size).toBeGreaterThanOrEqual(8);
    const sampleCounts = async () =>
      one<Record<string, number>>(
        `select (select count(*)::int from public.products where is_sample and archived_at is null) as products,
                (select count(*)::int from public.brands where is_sample and slug like 'sample-%-brand'
                   and archived_at is null) as directory,
                (select count(*)::int from public.brands where slug = 'sample-brand-example'
                   and archived_at is null) as catalogue_brand,
                (select count(*)::int from public.news_articles where is_sample) as news,
                (select (count(*) > 0)::int from public.market_closes where is_sample) as market`,
      );

    // --- Brands: the first real brand retires the directory's samples only. ---
    const brand = await admin.client
      .from('brands')
      .insert({ name: 'Evergreen Farms', slug: 'evergreen-farms' })
      .select('id')
      .single();
    expect(brand.error).toBeNull();
    expect(await sampleCounts()).toEqual({
      products: 6,
      directory: 0,
      catalogue_brand: 1,
      news: 6,
      market: 1,
    });
    // The claimed and the reported sample brands are archived, not deleted; the others are gone.
    expect(
      await sql(
        `select id, archived_at is not null as archived from public.brands where id = any ($1::uuid[]) order by id`,
        [[claimed.id, reported.id, untouched.id]],
      ),
    ).toEqual(
      [
        { id: claimed.id, archived: true },
        { id: reported.id, archived: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(
      await one('select brand_id, status from public.scammer_reports where id = $1', [reportId]),
    ).toEqual({
      brand_id: reported.id,
      status: 'published',
    });
    await expectNothingLost(before, everyone);

    // --- Pass or Gas: the first real product retires the sample catalogue only. ---
    const product = await admin.client
      .from('products')
      .insert({ name: 'Evergreen Kush', category: 'Flower', brand_id: brand.data?.id })
      .select('id')
      .single();
    expect(product.error).toBeNull();
    const realProduct = product.data?.id as string;
    expect(await sampleCounts()).toEqual({
      products: 0,
      directory: 0,
      catalogue_brand: 0,
      news: 6,
      market: 1,
    });
    // The sample carrying members' votes and comments is archived with its brand; its rows stay.
    expect(
      await one('select archived_at is not null as archived from public.products where id = $1', [voted.id]),
    ).toEqual({ archived: true });
    expect(await one('select count(*)::int as n from public.products where is_sample')).toEqual({ n: 1 });
    expect(
      await one(`select archived_at is not null as archived from public.brands where id = $1`, [
        catalogueBrand.id,
      ]),
    ).toEqual({ archived: true });
    await expectNothingLost(before, everyone);
    // The admin's profile counts are what they were: one vote, four comments.
    expect(
      await one<{ votes: number; comments: number }>(
        `select (select count(*)::int from public.product_votes where user_id = $1) as votes,
                (select count(*)::int from public.product_comments where user_id = $1) as comments`,
        [admin.id],
      ),
    ).toEqual({ votes: 1, comments: 4 });

    // Members act on real content: votes, comments, a claim, a saved article, a linked report.
    for (const actor of [alice, bruno]) {
      const vote = await actor.client
        .from('product_votes')
        .insert({ user_id: actor.id, product_id: realProduct, vote_type: 'gas' });
      expect(vote.error).toBeNull();
      const comment = await actor.client
        .from('product_comments')
        .insert({ user_id: actor.id, product_id: realProduct, content: `Real talk from ${actor.email}` });
      expect(comment.error).toBeNull();
    }
    const realClaim = await alice.client
      .from('brand_claims')
      .insert({ user_id: alice.id, brand_id: brand.data?.id, role_title: 'Head grower' });
    expect(realClaim.error).toBeNull();
    const before2 = await memberRows(everyone);
    // Two votes, two comments and a claim (and what they bring: signals, notifications…).
    expect(before2.size).toBeGreaterThanOrEqual(before.size + 5);

    // --- News: the first real article retires the sample articles only. ---
    await sql(
      `insert into public.news_articles (id, story_id, title, url, url_key, summary, source_name, category,
         published_at, fingerprint)
       select g, g, 'Regulators publish the quarterly report', u, private.news_url_key(u), 'A real summary.',
         'Real Gazette', 'Policy', now(), private.news_fingerprint('Regulators publish the quarterly report')
       from (select gen_random_uuid() as g, 'https://news.example.org/quarterly-report' as u) x`,
    );
    expect(await sampleCounts()).toEqual({
      products: 0,
      directory: 0,
      catalogue_brand: 0,
      news: 0,
      market: 1,
    });
    const saved = await bruno.client.from('saved_articles').insert({
      user_id: bruno.id,
      article_title: 'Regulators publish the quarterly report',
      article_url: 'https://news.example.org/quarterly-report',
    });
    expect(saved.error).toBeNull();
    await expectNothingLost(before2, everyone);

    // --- Market: the first real import retires the demonstration series only. ---
    const imported = await admin.client.rpc('market_import_closes', {
      p_rows: [{ ticker: 'TLRY', date: '2025-01-02', close: '1.50', source: 'Broker statement' }],
      p_apply: true,
    });
    expect(imported.error).toBeNull();
    expect(imported.data).toMatchObject({ ok: true, applied: true });
    expect(await sampleCounts()).toEqual({
      products: 0,
      directory: 0,
      catalogue_brand: 0,
      news: 0,
      market: 0,
    });

    // A second real product and a second real brand change nothing of anyone.
    const more = await admin.client.from('products').insert({ name: 'Evergreen Haze', category: 'Flower' });
    expect(more.error).toBeNull();
    const moreBrand = await admin.client.from('brands').insert({ name: 'Second Farm', slug: 'second-farm' });
    expect(moreBrand.error).toBeNull();
    await expectNothingLost(before2, everyone);
    expect(await one('select brand_id from public.scammer_reports where id = $1', [reportId])).toEqual({
      brand_id: reported.id,
    });

    // Nothing is left to retire; the plan says so.
    expect(await retirementPlan()).toEqual({});
    // Samples do not come back at the next start.
    await sql('select private.votes_samples(true), private.brands_samples(true), private.news_samples(true)');
    expect(await sampleCounts()).toEqual({
      products: 0,
      directory: 0,
      catalogue_brand: 0,
      news: 0,
      market: 0,
    });
  }, 180_000);

  it('DEMO_CONTENT=false retires with the same rule: a sample with members rows is archived, not deleted', async () => {
    const fresh = await startTestServer({ ...RELAXED_LIMITS, DEMO_CONTENT: 'true' });
    try {
      const q = async (text: string, params: unknown[] = []) => (await fresh.db.query(text, params)).rows;
      const member = await signedInUser(fresh, {});
      const [sample] = (await q('select id from public.products where is_sample order by name limit 1')) as {
        id: string;
      }[];
      await q('alter table public.product_votes disable trigger samples_guard');
      await q(`insert into public.product_votes (user_id, product_id, vote_type) values ($1, $2, 'gas')`, [
        member.id,
        sample?.id,
      ]);
      await q('alter table public.product_votes enable trigger samples_guard');
      await q('select private.votes_samples(false), private.brands_samples(false)');
      expect(await q('select id, archived_at is not null as archived from public.products')).toEqual([
        { id: sample?.id, archived: true },
      ]);
      expect(
        await q('select count(*)::int as n from public.product_votes where user_id = $1', [member.id]),
      ).toEqual([{ n: 1 }]);
      expect(await q(`select slug from public.brands where archived_at is null`)).toEqual([]);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
