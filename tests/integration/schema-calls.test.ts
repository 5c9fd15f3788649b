// @databases: both — the product schema's SQL.
/**
 * Product §table-calls and the states of each area's section at SQL level, as the Data API will run them:
 * each statement in a transaction scoped to the caller. The SQL mirrors what PostgREST generates for the web
 * app's supabase-js calls (filters, order, limit, upsert on the primary key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import {
  anon,
  createProducts,
  expireTrial,
  insertAccount,
  isoDate,
  isoTimestamp,
  makeAdmin,
  runAs,
  serviceRole,
  tryAs,
  user,
} from './schema-support.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

const ALICE = '1a000000-0000-4000-8000-000000000001';
const BOB = '1a000000-0000-4000-8000-000000000002';
const ADMIN = '1a000000-0000-4000-8000-000000000003';
const alice = (ip?: string) => user(ALICE, ip);
const bob = (ip?: string) => user(BOB, ip);
const admin = (ip?: string) => user(ADMIN, ip);

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  await insertAccount(db, { id: ALICE, email: 'alice@example.com', fullName: 'Alice Green' });
  await insertAccount(db, { id: BOB, email: 'bob@example.com', fullName: 'Bob Grey' });
  await insertAccount(db, { id: ADMIN, email: 'support@example.com', fullName: 'Support' });
  await createProducts(db, ['p-1', 'p-2', 'p-3']);
  await makeAdmin(db, ADMIN);
});
afterAll(() => handle?.close());

describe('profiles (§profile-creation, §access trial; §table-calls get by user_id, insert, update)', () => {
  it('are created with every new account from its email, metadata name and a derived username', async () => {
    const id = '1a000000-0000-4000-8000-0000000000a1';
    await insertAccount(db, { id, email: 'Jane.Doe+Buds@Example.com', fullName: '  Jane Doe ' });
    const { rows } = await db.query(
      `select email, full_name, username, bio, avatar_url, extract(epoch from trial_ends_at - created_at)::int as trial_seconds
       from public.profiles where user_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        email: 'Jane.Doe+Buds@Example.com',
        full_name: 'Jane Doe',
        username: 'jane_doe_buds',
        bio: null,
        avatar_url: null,
        trial_seconds: 24 * 3600,
      },
    ]);
  });

  it('give a taken username a suffix, drop an unusable name and cope with an account without email', async () => {
    const twin = '1a000000-0000-4000-8000-0000000000a2';
    const phoneOnly = '1a000000-0000-4000-8000-0000000000a3';
    await insertAccount(db, { id: twin, email: 'jane.doe+buds@other.example', fullName: '<b>Jane</b>' });
    await insertAccount(db, { id: phoneOnly, email: null, fullName: 'J' });
    const { rows } = await db.query<{ user_id: string; username: string; full_name: string | null }>(
      'select user_id, username, full_name from public.profiles where user_id in ($1, $2) order by email nulls last',
      [twin, phoneOnly],
    );
    expect(rows[0]?.username).toMatch(/^jane_doe_buds_[0-9a-f]{6}$/);
    expect(rows[0]?.full_name).toBeNull();
    expect(rows[1]).toEqual({ user_id: phoneOnly, username: 'user', full_name: null });
  });

  it('are read by user_id as exactly one row by the owner, and not at all by others', async () => {
    const sql = 'select * from public.profiles where user_id = $1';
    expect((await runAs(db, alice(), sql, [ALICE])).length).toBe(1);
    expect(await runAs(db, bob(), sql, [ALICE])).toEqual([]);
    expect(await runAs(db, anon(), sql, [ALICE])).toEqual([]);
  });

  it('can be created by the owner when missing (the not-found fallback), with the trial set by the server', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('delete from public.profiles where user_id = $1', [BOB]);
      return 'removed';
    });
    expect(result).toBe('removed');
    const [row] = await runAs<Record<string, unknown>>(
      db,
      bob(),
      `insert into public.profiles (user_id, email, full_name, username) values ($1, $2, $3, $4)
       returning user_id, email, full_name, username, trial_ends_at > now() + interval '23 hours' as trial_active`,
      [BOB, 'bob@example.com', 'Bob Grey', 'bob'],
    );
    expect(row).toEqual({
      user_id: BOB,
      email: 'bob@example.com',
      full_name: 'Bob Grey',
      username: 'bob',
      trial_active: true,
    });
  });

  it('are updated (username, full_name, bio, avatar_url) with exactly the values given', async () => {
    const values = [
      'alice_g',
      'Alice Green-Leaf',
      'Grower & reviewer since 2015.',
      'https://cdn.example/u/a.png',
    ];
    const [row] = await runAs(
      db,
      alice(),
      `update public.profiles set username = $1, full_name = $2, bio = $3, avatar_url = $4 where user_id = $5
       returning username, full_name, bio, avatar_url`,
      [...values, ALICE],
    );
    expect(row).toEqual({ username: values[0], full_name: values[1], bio: values[2], avatar_url: values[3] });
    // Clearing fields: the web app saves empty inputs as null.
    const [cleared] = await runAs(
      db,
      alice(),
      'update public.profiles set bio = null, avatar_url = null where user_id = $1 returning bio, avatar_url',
      [ALICE],
    );
    expect(cleared).toEqual({ bio: null, avatar_url: null });
  });

  it('refuse a username someone else has, whatever its case, with 23505', async () => {
    const result = await tryAs(db, bob(), 'update public.profiles set username = $1 where user_id = $2', [
      'ALICE_G',
      BOB,
    ]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: '23505', constraint: 'profiles_username_key' },
    });
  });

  it('refuse empty strings (saved as null by the web app) with 23514', async () => {
    for (const [column, value] of [
      ['username', ''],
      ['full_name', '   '],
      ['bio', ''],
    ] as const) {
      const result = await tryAs(
        db,
        alice(),
        `update public.profiles set ${column} = $1 where user_id = $2`,
        [value, ALICE],
      );
      expect(result, column).toMatchObject({ ok: false, error: { code: '23514' } });
    }
  });

  it('follow the email of the account when it changes', async () => {
    const id = '1a000000-0000-4000-8000-0000000000a4';
    await insertAccount(db, { id, email: 'old@example.com' });
    await db.query('update auth.users set email = $1 where id = $2', ['new@example.com', id]);
    const { rows } = await db.query('select email from public.profiles where user_id = $1', [id]);
    expect(rows).toEqual([{ email: 'new@example.com' }]);
  });

  it('start a trial whose length is a product setting', async () => {
    await db.query(`update private.app_settings set trial_length = interval '48 hours'`);
    try {
      const id = '1a000000-0000-4000-8000-0000000000a5';
      await insertAccount(db, { id, email: 'later@example.com' });
      const { rows } = await db.query(
        'select extract(epoch from trial_ends_at - created_at)::int as seconds from public.profiles where user_id = $1',
        [id],
      );
      expect(rows).toEqual([{ seconds: 48 * 3600 }]);
    } finally {
      await db.query(`update private.app_settings set trial_length = interval '24 hours'`);
    }
  });
});

describe('privacy_settings (§privacy, §table-calls select single, upsert on user_id)', () => {
  const columns =
    'profile_visibility, show_email, show_activity, allow_analytics, allow_marketing, data_processing_consent, auto_delete_inactive, inactive_period_months';
  const upsert = `insert into public.privacy_settings (user_id, ${columns}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    on conflict (user_id) do update set ${columns
      .split(', ')
      .map((column) => `${column} = excluded.${column}`)
      .join(', ')}`;

  it('have no row until first saved: the select returns zero rows (supabase-js .single() → PGRST116)', async () => {
    expect(
      await runAs(db, alice(), 'select * from public.privacy_settings where user_id = $1', [ALICE]),
    ).toEqual([]);
  });

  it('start with every optional sharing setting off (decision 193)', async () => {
    const [row] = await runAs<Record<string, unknown>>(
      db,
      bob(),
      `insert into public.privacy_settings (user_id) values ($1) returning ${columns}`,
      [BOB],
    );
    expect(row).toEqual({
      profile_visibility: 'public',
      show_email: false,
      show_activity: false,
      allow_analytics: false,
      allow_marketing: false,
      data_processing_consent: false,
      auto_delete_inactive: false,
      inactive_period_months: 24,
    });
  });

  it('are saved by upsert with user_id and the eight settings, one row per user', async () => {
    await runAs(db, alice(), upsert, [ALICE, 'private', true, false, false, true, true, true, 36]);
    await runAs(db, alice(), upsert, [ALICE, 'friends', false, true, true, false, true, true, 60]);
    const rows = await runAs(
      db,
      alice(),
      `select ${columns} from public.privacy_settings where user_id = $1`,
      [ALICE],
    );
    expect(rows).toEqual([
      {
        profile_visibility: 'friends',
        show_email: false,
        show_activity: true,
        allow_analytics: true,
        allow_marketing: false,
        data_processing_consent: true,
        auto_delete_inactive: true,
        inactive_period_months: 60,
      },
    ]);
  });

  it("cannot be upserted onto another user's row", async () => {
    const result = await tryAs(db, bob(), upsert, [ALICE, 'public', true, true, true, true, true, true, 12]);
    expect(result).toMatchObject({ ok: false, error: { code: '42501' } });
  });

  it('refuse values outside the options with 23514', async () => {
    expect(
      await tryAs(db, alice(), upsert, [ALICE, 'everyone', true, true, true, true, true, true, 24]),
    ).toMatchObject({ ok: false, error: { code: '23514' } });
    expect(
      await tryAs(db, alice(), upsert, [ALICE, 'public', true, true, true, true, true, true, 18]),
    ).toMatchObject({
      ok: false,
      error: { code: '23514' },
    });
  });
});

describe('product_votes, product_comments, saved_articles (§table-calls by user_id newest first)', () => {
  it('list the owner’s rows newest first', async () => {
    for (const product of ['p-1', 'p-2', 'p-3']) {
      await runAs(
        db,
        alice(),
        `insert into public.product_votes (user_id, product_id, vote_type) values ($1, $2, 'gas')`,
        [ALICE, product],
      );
      await runAs(
        db,
        alice(),
        'insert into public.product_comments (user_id, product_id, content) values ($1, $2, $3)',
        [ALICE, product, `About ${product}`],
      );
      await runAs(
        db,
        alice(),
        'insert into public.saved_articles (user_id, article_title, article_url, article_category) values ($1, $2, $3, $4)',
        [ALICE, `Story ${product}`, `https://news.example/${product}`, 'Business'],
      );
    }
    const votes = await runAs<{ product_id: string }>(
      db,
      alice(),
      'select product_id from public.product_votes where user_id = $1 order by created_at desc',
      [ALICE],
    );
    expect(votes.map((row) => row.product_id)).toEqual(['p-3', 'p-2', 'p-1']);
    const comments = await runAs<{ content: string }>(
      db,
      alice(),
      'select content from public.product_comments where user_id = $1 order by created_at desc',
      [ALICE],
    );
    expect(comments.map((row) => row.content)).toEqual(['About p-3', 'About p-2', 'About p-1']);
    const saved = await runAs<{ article_title: string }>(
      db,
      alice(),
      'select article_title from public.saved_articles where user_id = $1 order by saved_at desc',
      [ALICE],
    );
    expect(saved.map((row) => row.article_title)).toEqual(['Story p-3', 'Story p-2', 'Story p-1']);
    // Others see none of Alice's votes or saved articles; comments are public.
    expect(await runAs(db, bob(), 'select 1 from public.product_votes where user_id = $1', [ALICE])).toEqual(
      [],
    );
    expect(await runAs(db, bob(), 'select 1 from public.saved_articles where user_id = $1', [ALICE])).toEqual(
      [],
    );
    expect(
      (await runAs(db, anon(), 'select 1 from public.product_comments where user_id = $1', [ALICE])).length,
    ).toBe(3);
  });

  it('allow one vote per member per product, changeable and removable', async () => {
    const again = await tryAs(
      db,
      alice(),
      `insert into public.product_votes (user_id, product_id, vote_type) values ($1, 'p-1', 'pass')`,
      [ALICE],
    );
    expect(again).toMatchObject({ ok: false, error: { code: '23505' } });
    const [changed] = await runAs(
      db,
      alice(),
      `update public.product_votes set vote_type = 'pass' where user_id = $1 and product_id = 'p-1' returning vote_type`,
      [ALICE],
    );
    expect(changed).toEqual({ vote_type: 'pass' });
    const moved = await tryAs(
      db,
      alice(),
      `update public.product_votes set product_id = 'p-9' where user_id = $1 and product_id = 'p-1'`,
      [ALICE],
    );
    expect(moved).toMatchObject({ ok: false, error: { code: '42501' } });
  });

  it('delete a saved article by user_id and id, and only the owner’s', async () => {
    const [row] = await runAs<{ id: string }>(
      db,
      alice(),
      `select id from public.saved_articles where user_id = $1 and article_url = 'https://news.example/p-1'`,
      [ALICE],
    );
    const sql = 'delete from public.saved_articles where user_id = $1 and id = $2';
    expect(await tryAs(db, bob(), sql, [ALICE, row?.id])).toMatchObject({ ok: true, value: { rowCount: 0 } });
    expect(
      await tryAs(db, bob(), 'delete from public.saved_articles where id = $1', [row?.id]),
    ).toMatchObject({
      ok: true,
      value: { rowCount: 0 },
    });
    const deleted = await db.withScope(
      alice(),
      async (tx) => (await tx.query(sql, [ALICE, row?.id])).rowCount,
    );
    expect(deleted).toBe(1);
  });

  it('refuse saving the same article twice with 23505', async () => {
    const result = await tryAs(
      db,
      alice(),
      'insert into public.saved_articles (user_id, article_title, article_url) values ($1, $2, $3)',
      [ALICE, 'Again', 'https://news.example/p-2'],
    );
    expect(result).toMatchObject({ ok: false, error: { code: '23505' } });
  });
});

describe('scammer_subscriptions (§access; §table-calls latest, active and unexpired, upsert, cancel)', () => {
  const latest =
    'select status, subscription_type from public.scammer_subscriptions where user_id = $1 order by created_at desc limit 1';
  const activeUnexpired = `select 1 from public.scammer_subscriptions where user_id = $1 and status = 'active' and expires_at > now()`;
  const subscribe = `insert into public.scammer_subscriptions (user_id, subscription_type, status, expires_at)
    values ($1, 'monthly', 'active', $2)
    on conflict (user_id) do update set subscription_type = excluded.subscription_type, status = excluded.status,
      expires_at = excluded.expires_at`;
  const access = async (scope = bob()) =>
    (await runAs<{ access: boolean }>(db, scope, 'select public.has_scammer_access() as access'))[0]?.access;

  it('go from none to active to cancelled to active again, written by the server; access runs to the expiry', async () => {
    await expireTrial(db, BOB);
    expect(await runAs(db, bob(), latest, [BOB])).toEqual([]);
    expect(await access()).toBe(false);

    // Issue 22 (decision 131): only the server writes the row — here the demo activation.
    await db.query('select private.demo_activate_subscription($1)', [BOB]);
    expect(await runAs(db, bob(), latest, [BOB])).toEqual([
      { status: 'active', subscription_type: 'monthly' },
    ]);
    expect((await runAs(db, bob(), activeUnexpired, [BOB])).length).toBe(1);
    expect(await access()).toBe(true);

    await db.query('select private.demo_cancel_subscription($1)', [BOB]);
    expect(await runAs(db, bob(), latest, [BOB])).toEqual([
      { status: 'cancelled', subscription_type: 'monthly' },
    ]);
    expect(await runAs(db, bob(), activeUnexpired, [BOB])).toEqual([]);
    // Cancelled at the end of the period: access continues until the expiry.
    expect(await access()).toBe(true);

    await db.query('select private.demo_activate_subscription($1)', [BOB]);
    expect(await runAs(db, bob(), latest, [BOB])).toEqual([
      { status: 'active', subscription_type: 'monthly' },
    ]);
    expect(await access()).toBe(true);
    expect(
      (
        await db.query('select count(*)::int as n from public.scammer_subscriptions where user_id = $1', [
          BOB,
        ])
      ).rows,
    ).toEqual([{ n: 1 }]);
  });

  it('refuse an owner every write: activating, extending, moving, cancelling through the data API', async () => {
    expect(await tryAs(db, bob(), subscribe, [BOB, isoTimestamp(20)])).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    expect(await tryAs(db, bob(), subscribe, [BOB, isoTimestamp(3650)])).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    for (const sql of [
      'update public.scammer_subscriptions set expires_at = $2 where user_id = $1',
      `update public.scammer_subscriptions set status = 'cancelled', expires_at = $2 where user_id = $1`,
      `update public.scammer_subscriptions set provider = 'admin', expires_at = $2 where user_id = $1`,
    ]) {
      expect(await tryAs(db, bob(), sql, [BOB, isoTimestamp(400)])).toMatchObject({
        ok: true,
        value: { rowCount: 0 },
      });
    }
    expect(
      await tryAs(
        db,
        bob(),
        `update public.scammer_subscriptions set status = 'cancelled' where user_id = $1`,
        [BOB],
      ),
    ).toMatchObject({ ok: true, value: { rowCount: 0 } });
    expect(await runAs(db, bob(), latest, [BOB])).toEqual([
      { status: 'active', subscription_type: 'monthly' },
    ]);
  });

  it('expire: an active subscription past its expiry gives no access', async () => {
    await db.query(
      `update public.scammer_subscriptions set expires_at = now() - interval '1 minute' where user_id = $1`,
      [BOB],
    );
    expect(await access()).toBe(false);
  });

  it('may be granted by an admin for longer (a comp)', async () => {
    await runAs(db, admin(), subscribe, [BOB, isoTimestamp(365)]);
    expect(await access()).toBe(true);
  });

  it('an active trial gives access, and admins always have it', async () => {
    const id = '1a000000-0000-4000-8000-0000000000b1';
    await insertAccount(db, { id, email: 'trial@example.com' });
    expect(await access(user(id))).toBe(true);
    await expireTrial(db, id);
    expect(await access(user(id))).toBe(false);
    await expireTrial(db, ADMIN);
    expect(await access(admin())).toBe(true);
    expect(await access(anon())).toBe(false);
  });
});

describe('user_roles (§admin-bootstrap, §table-calls get where role is admin, insert)', () => {
  const mine = `select role from public.user_roles where user_id = $1 and role = 'admin'`;
  it('tell a user whether they are admin (zero rows: not an admin)', async () => {
    expect(await runAs(db, alice(), mine, [ALICE])).toEqual([]);
    expect(await runAs(db, admin(), mine, [ADMIN])).toEqual([{ role: 'admin' }]);
    expect(
      (await runAs<{ yes: boolean }>(db, admin(), `select public.has_role('admin') as yes`))[0]?.yes,
    ).toBe(true);
    expect(
      (await runAs<{ yes: boolean }>(db, alice(), `select public.has_role('admin') as yes`))[0]?.yes,
    ).toBe(false);
  });

  it('are granted by the server (bootstrap) with a duplicate answered 23505, which bootstrap ignores', async () => {
    const sql = `insert into public.user_roles (user_id, role) values ($1, 'admin')`;
    expect(await tryAs(db, serviceRole(), sql, [ADMIN])).toMatchObject({
      ok: false,
      error: { code: '23505' },
    });
    expect(await tryAs(db, alice(), sql, [ALICE])).toMatchObject({ ok: false, error: { code: '42501' } });
    expect(
      await tryAs(
        db,
        serviceRole(),
        `insert into public.user_roles (user_id, role) values ($1, 'moderator')`,
        [ALICE],
      ),
    ).toMatchObject({
      ok: false,
      error: { code: '23514' },
    });
  });
});

describe('admin_posts (§admin, §table-calls published newest first, insert, delete by id)', () => {
  it('are created by admins, read by anyone once published (newest first), deleted by admins', async () => {
    const insert = `insert into public.admin_posts (title, content, author_id, featured, media_urls, status)
      values ($1, $2, $3, $4, $5, $6) returning id, title, content, author_id, featured, media_urls, status`;
    const [first] = await runAs<{ id: string }>(db, admin(), insert, [
      'Harvest festival',
      'Join us on Saturday.',
      ADMIN,
      true,
      ['https://cdn.example/admin-posts/a.jpg'],
      'published',
    ]);
    expect(first).toMatchObject({
      title: 'Harvest festival',
      content: 'Join us on Saturday.',
      author_id: ADMIN,
      featured: true,
      media_urls: ['https://cdn.example/admin-posts/a.jpg'],
      status: 'published',
    });
    await runAs(db, admin(), insert, ['Second', 'More news.', ADMIN, false, [], 'published']);
    await runAs(db, admin(), insert, ['Draft', 'Not yet.', ADMIN, false, [], 'draft']);
    const published = `select title from public.admin_posts where status = 'published' order by created_at desc`;
    expect(await runAs(db, anon(), published)).toEqual([{ title: 'Second' }, { title: 'Harvest festival' }]);
    expect(await runAs(db, anon(), `select title from public.admin_posts where status = 'draft'`)).toEqual(
      [],
    );
    expect(await tryAs(db, alice(), insert, ['Mine', 'Hi', ALICE, false, [], 'published'])).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    expect(
      await tryAs(db, alice(), 'delete from public.admin_posts where id = $1', [first?.id]),
    ).toMatchObject({
      ok: true,
      value: { rowCount: 0 },
    });
    const deleted = await db.withScope(
      admin(),
      async (tx) => (await tx.query('delete from public.admin_posts where id = $1', [first?.id])).rowCount,
    );
    expect(deleted).toBe(1);
  });
});

describe('notifications (§notifications, §table-calls latest 20, mark one, mark all)', () => {
  it('are sent by admins, read by their user (latest 20) and marked read one by one or all at once', async () => {
    for (let index = 1; index <= 25; index++) {
      await runAs(
        db,
        admin(),
        'insert into public.notifications (user_id, title, message) values ($1, $2, $3)',
        [ALICE, `Notice ${index}`, `Message ${index}`],
      );
    }
    const latest = await runAs<{ id: string; title: string; is_read: boolean }>(
      db,
      alice(),
      'select id, title, is_read from public.notifications where user_id = $1 order by created_at desc limit 20',
      [ALICE],
    );
    expect(latest).toHaveLength(20);
    expect(latest[0]?.title).toBe('Notice 25');
    expect(latest.every((row) => row.is_read === false)).toBe(true);

    const one = latest[0]?.id;
    expect(
      await runAs(db, bob(), 'update public.notifications set is_read = true where id = $1 returning id', [
        one,
      ]),
    ).toEqual([]);
    expect(
      await runAs(
        db,
        alice(),
        'update public.notifications set is_read = true where id = $1 returning is_read',
        [one],
      ),
    ).toEqual([{ is_read: true }]);
    const unread =
      'select count(*)::int as n from public.notifications where user_id = $1 and is_read = false';
    expect(await runAs(db, alice(), unread, [ALICE])).toEqual([{ n: 24 }]);
    const marked = await db.withScope(
      alice(),
      async (tx) =>
        (
          await tx.query(
            'update public.notifications set is_read = true where user_id = $1 and is_read = false',
            [ALICE],
          )
        ).rowCount,
    );
    expect(marked).toBe(24);
    expect(await runAs(db, alice(), unread, [ALICE])).toEqual([{ n: 0 }]);
  });

  it('let their user change is_read only', async () => {
    const [row] = await runAs<{ id: string }>(
      db,
      alice(),
      'select id from public.notifications where user_id = $1 limit 1',
      [ALICE],
    );
    for (const [column, value] of [
      ['title', 'Changed'],
      ['message', 'Changed'],
      ['user_id', BOB],
    ] as const) {
      const result = await tryAs(
        db,
        alice(),
        `update public.notifications set ${column} = $1 where id = $2`,
        [value, row?.id],
      );
      expect(result, column).toMatchObject({ ok: false, error: { code: '42501' } });
    }
    expect(
      await tryAs(
        db,
        alice(),
        'insert into public.notifications (user_id, title, message) values ($1, $2, $3)',
        [ALICE, 'Self', 'Sent to myself'],
      ),
    ).toMatchObject({ ok: false, error: { code: '42501' } });
  });
});

describe('scammer_reports (§report-dialog, §table-calls insert; design.md review flow)', () => {
  // truth_confirmed_at: the reporter's confirmation (decision 200), stamped by the database.
  const insert = `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, location,
      business_name, contact_info, amount_scammed, date_of_incident, reporter_user_id, truth_confirmed_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
    returning id, scammer_name, scammer_description, incident_details, location, business_name, contact_info,
      amount_scammed, date_of_incident, reporter_user_id, status`;
  let reportId: string;

  it('are submitted by a signed-in user as themselves, stored exactly, with status submitted', async () => {
    const values = [
      'Shady Sam',
      'Sells fake lab results.',
      'Paid 300 dollars for an ounce that never arrived; phone off since.',
      'Denver, CO',
      'Sam Supplies LLC',
      'sam@shady.example, +1 555 0100',
      '300.50',
      isoDate(-3),
      ALICE,
    ];
    const [row] = await runAs<Record<string, unknown>>(db, alice(), insert, values);
    reportId = String(row?.id);
    expect(row).toEqual({
      id: reportId,
      scammer_name: values[0],
      scammer_description: values[1],
      incident_details: values[2],
      location: values[3],
      business_name: values[4],
      contact_info: values[5],
      amount_scammed: '300.50',
      date_of_incident: values[7],
      reporter_user_id: ALICE,
      status: 'submitted',
    });
  });

  it('keep optional fields null when left empty', async () => {
    const [row] = await runAs(db, alice(), insert, [
      'Other Guy',
      'Never delivered.',
      'Ordered seeds in spring and nothing ever came.',
      null,
      null,
      null,
      null,
      null,
      ALICE,
    ]);
    expect(row).toMatchObject({
      location: null,
      business_name: null,
      contact_info: null,
      amount_scammed: null,
    });
  });

  it('are seen by their reporter and admins; published ones by members with access (through the view)', async () => {
    const sql = 'select id, status from public.scammer_reports where id = $1';
    expect(await runAs(db, alice(), sql, [reportId])).toEqual([{ id: reportId, status: 'submitted' }]);
    const subscriber = '1a000000-0000-4000-8000-0000000000c1';
    await insertAccount(db, { id: subscriber, email: 'member@example.com' });
    expect(await runAs(db, user(subscriber), sql, [reportId])).toEqual([]); // not yet published
    expect(
      await runAs(db, alice(), 'update public.scammer_reports set status = $1 where id = $2 returning id', [
        'published',
        reportId,
      ]),
    ).toEqual([]);
    // Admins move it along the review flow (decision 123), publishing with the reviewers' summary
    // (decision 195); readers read the published view, never the table.
    for (const status of ['under_review', 'published']) {
      // Before publishing, the reviewer decides the masks the database proposed (decision 240).
      await runAs(
        db,
        admin(),
        `update public.scammer_report_masks set state = 'unmasked' where report_id = $1 and state = 'proposed'`,
        [reportId],
      );
      await runAs(
        db,
        admin(),
        'update public.scammer_reports set status = $1, public_summary = $3 where id = $2',
        [status, reportId, 'A member reports paying for an order that never came.'],
      );
    }
    const view = 'select id from public.published_scammer_reports where id = $1';
    expect(await runAs(db, user(subscriber), sql, [reportId])).toEqual([]);
    expect(await runAs(db, user(subscriber), view, [reportId])).toEqual([{ id: reportId }]); // in trial
    await expireTrial(db, subscriber);
    expect(await runAs(db, user(subscriber), view, [reportId])).toEqual([]);
    expect(await runAs(db, anon(), sql, [reportId])).toEqual([]);
  });

  it('refuse a report in another user’s name and one that claims a status', async () => {
    const values = [
      'Shady Sam',
      'Sells fake lab results.',
      'Paid and got nothing at all, for weeks.',
      null,
      null,
      null,
      null,
      null,
    ];
    expect(await tryAs(db, bob(), insert, [...values, ALICE])).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    expect(
      await tryAs(
        db,
        bob(),
        `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, reporter_user_id, status, truth_confirmed_at)
         values ($1, $2, $3, $4, 'published', now())`,
        [values[0], values[1], values[2], BOB],
      ),
    ).toMatchObject({ ok: false, error: { code: '42501' } });
    expect(await tryAs(db, anon(), insert, [...values, null])).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
  });

  it('are limited to 3 per 15 minutes per user (§report-dialog), answered with PT429 "rate limit"', async () => {
    const id = '1a000000-0000-4000-8000-0000000000c2';
    await insertAccount(db, { id, email: 'prolific@example.com' });
    const values = [
      'Shady Sam',
      'Sells fake lab results.',
      'Paid and got nothing at all, for weeks.',
      null,
      null,
      null,
      null,
      null,
      id,
    ];
    for (let index = 0; index < 3; index++) await runAs(db, user(id, '203.0.113.50'), insert, values);
    const fourth = await tryAs(db, user(id, '203.0.113.51'), insert, values);
    expect(fourth).toMatchObject({ ok: false, error: { code: 'PT429' } });
    expect(fourth.ok ? '' : fourth.error.message).toMatch(/rate limit/i);
  });
});

describe('bookings (§booking, §table-calls insert)', () => {
  const insert = `insert into public.bookings (user_id, full_name, email, phone, company_name, product_name,
      product_description, product_category, booking_date, booking_time, special_requests)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;
  const values = (userId: string | null) => [
    userId,
    'Brand Owner',
    'brand@example.com',
    '+1 (555) 010-0200',
    'Sunset Farms',
    'Sunset Gummies',
    'Fruit gummies, 10 mg each.',
    'Edibles',
    isoDate(5),
    '14:30',
    'Morning preferred.',
  ];

  it('are inserted anonymously by visitors and as themselves by members, stored exactly', async () => {
    await runAs(db, anon('203.0.113.60'), insert, values(null));
    await runAs(db, alice('203.0.113.61'), insert, values(ALICE));
    const { rows } = await db.query(
      `select user_id, full_name, email, phone, company_name, product_name, product_description, product_category,
              booking_date, booking_time, special_requests
       from public.bookings order by created_at`,
    );
    expect(rows).toEqual([
      Object.fromEntries(
        [
          'user_id',
          'full_name',
          'email',
          'phone',
          'company_name',
          'product_name',
          'product_description',
          'product_category',
          'booking_date',
          'booking_time',
          'special_requests',
        ].map((column, index) => [column, values(null)[index]]),
      ),
      expect.objectContaining({ user_id: ALICE }),
    ]);
  });

  it('are read by admins and their owner only', async () => {
    expect((await runAs(db, admin(), 'select 1 from public.bookings')).length).toBe(2);
    expect((await runAs(db, alice(), 'select 1 from public.bookings')).length).toBe(1);
    expect(await runAs(db, bob(), 'select 1 from public.bookings')).toEqual([]);
    expect(await runAs(db, anon(), 'select 1 from public.bookings')).toEqual([]);
  });

  it('refuse a booking in another user’s name', async () => {
    expect(await tryAs(db, bob('203.0.113.62'), insert, values(ALICE))).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
    expect(await tryAs(db, anon('203.0.113.62'), insert, values(ALICE))).toMatchObject({
      ok: false,
      error: { code: '42501' },
    });
  });

  it('are limited per client address, so an open form cannot be flooded', async () => {
    const ip = '203.0.113.63';
    for (let index = 0; index < 20; index++) await runAs(db, anon(ip), insert, values(null));
    expect(await tryAs(db, anon(ip), insert, values(null))).toMatchObject({
      ok: false,
      error: { code: 'PT429' },
    });
    // Another address is unaffected; the server's roles are not limited.
    await runAs(db, anon('203.0.113.64'), insert, values(null));
    await runAs(db, serviceRole(ip), insert, values(null));
  });
});

describe('account deletion (GDPR: profile, reviews and comments, bookings and submissions, all personal data)', () => {
  it('removes every row of the user in every table', async () => {
    const id = '1a000000-0000-4000-8000-0000000000d1';
    await insertAccount(db, { id, email: 'leaving@example.com' });
    await makeAdmin(db, id);
    const me = user(id, '203.0.113.70');
    await runAs(db, me, 'insert into public.privacy_settings (user_id) values ($1)', [id]);
    await runAs(
      db,
      me,
      `insert into public.scammer_subscriptions (user_id, expires_at) values ($1, now() + interval '7 days')`,
      [id],
    );
    await runAs(
      db,
      me,
      `insert into public.product_votes (user_id, product_id, vote_type) values ($1, 'p-1', 'gas')`,
      [id],
    );
    await runAs(
      db,
      me,
      `insert into public.product_comments (user_id, product_id, content) values ($1, 'p-1', 'Nice')`,
      [id],
    );
    await runAs(
      db,
      me,
      `insert into public.saved_articles (user_id, article_title, article_url) values ($1, 'T', 'https://n.example/1')`,
      [id],
    );
    await runAs(db, me, `insert into public.notifications (user_id, title, message) values ($1, 'T', 'M')`, [
      id,
    ]);
    await runAs(db, me, `insert into public.admin_posts (title, content, author_id) values ('T', 'C', $1)`, [
      id,
    ]);
    await runAs(
      db,
      me,
      `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, reporter_user_id, truth_confirmed_at)
       values ('Some One', 'Took the money.', 'Paid and never heard back from them.', $1, now())`,
      [id],
    );
    await runAs(
      db,
      me,
      `insert into public.bookings (user_id, full_name, email, product_name, product_category, booking_date, booking_time)
      values ($1, 'Leaving User', 'leaving@example.com', 'Thing', 'Other', $2, '09:00')`,
      [id, isoDate(3)],
    );
    await runAs(db, me, `select public.log_security_event('auth', 'signin')`);
    await runAs(db, me, `select public.global_rate_limit_check('report', 3, 15)`);
    // The server's rule: 3 sign-ups an hour; the fourth is a violation (a penalty row).
    for (let index = 0; index < 4; index++) {
      await runAs(db, me, `select public.progressive_rate_limit_check('auth_signup', 1, 60)`);
    }

    const tables = [
      ['public.profiles', 'user_id'],
      ['public.user_roles', 'user_id'],
      ['public.privacy_settings', 'user_id'],
      ['public.scammer_subscriptions', 'user_id'],
      ['public.product_votes', 'user_id'],
      ['public.product_comments', 'user_id'],
      ['public.saved_articles', 'user_id'],
      ['public.notifications', 'user_id'],
      ['public.admin_posts', 'author_id'],
      ['public.scammer_reports', 'reporter_user_id'],
      ['public.bookings', 'user_id'],
      ['public.security_events', 'user_id'],
      ['private.rate_limit_attempts', 'user_id'],
      ['private.rate_limit_penalties', 'user_id'],
      ['private.write_quota_usage', 'user_id'],
    ];
    const count = async () => {
      const counts: Record<string, number> = {};
      for (const [table, column] of tables) {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from ${table} where ${column} = $1`,
          [id],
        );
        counts[String(table)] = rows[0]?.n ?? -1;
      }
      return counts;
    };
    const before = await count();
    expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);
    await db.query('delete from auth.users where id = $1', [id]);
    expect(Object.values(await count()).every((n) => n === 0)).toBe(true);
  });
});
