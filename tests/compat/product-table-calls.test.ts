// @databases: both — the answers the web app branches on come from RLS and constraints.
/**
 * Product §table-calls and §rpc exactly as the web app writes them with supabase-js,
 * against the real server: each call's answer (data, error code, HTTP status) as the web app reads it,
 * including the codes the page branches on (PGRST116 for a missing row, 23505 for a taken username or
 * a duplicate role, 42501 for what a caller may not do, a "rate limit" message with HTTP 429).
 * Mirrors tests/integration/schema-calls.test.ts and schema-rpc.test.ts, which check the same rules
 * at SQL level.
 *
 * Members are created with the service key and sign in with their password (tests/support/users.ts);
 * the admin is the SUPPORT_EMAIL account, given the role with the service key as an operator would
 * (the automatic bootstrap needs a mailed link followed, decision 093; tested in
 * tests/integration/auth-limits-and-bootstrap.test.ts).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { type SignedInUser as Member, signedInUser } from '#tests/support/users.ts';

const SUPPORT_EMAIL = 'support@calls.example';

let server: ServerProcess;
let service: SupabaseClient;
let anon: SupabaseClient;
let alice: Member;
let bob: Member;
let admin: Member;

const DAY = 86_400_000;
/** A calendar date as the booking form formats it (yyyy-MM-dd). */
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** "One month ahead", as the browser computes a subscription's expiry. */
function oneMonthAhead(): string {
  const date = new Date();
  date.setMonth(date.getMonth() + 1);
  return date.toISOString();
}

interface Answer {
  error: { code: string; message: string } | null;
  status: number;
}
/** The error the web app branches on: its code, and the HTTP status PostgREST gives it. */
function expectError(answer: Answer, code: string, status: number): void {
  expect({ code: answer.error?.code, status: answer.status }, answer.error?.message).toEqual({
    code,
    status,
  });
}
function expectOk(answer: Answer, status: number): void {
  expect({ error: answer.error, status: answer.status }).toEqual({ error: null, status });
}
/** An upsert that updated an existing row: PostgREST versions differ on 200 or 201, the web app reads the error. */
function expectUpserted(answer: Answer): void {
  expect(answer.error).toBeNull();
  expect([200, 201]).toContain(answer.status);
}

beforeAll(async () => {
  server = await startServerProcess({ SUPPORT_EMAIL });
  service = adminClient(server);
  anon = clientFor(server);
  alice = await signedInUser(server, { email: 'alice@calls.example', fullName: 'Alice Green' });
  bob = await signedInUser(server, { email: 'Bob.Grey+Buds@calls.example', fullName: 'Bob Grey' });
  admin = await signedInUser(server, { email: SUPPORT_EMAIL, fullName: 'Support', admin: true });
  // Votes and comments name real Pass or Gas products.
  const products = await service
    .from('products')
    .upsert(['p-1', 'p-2', 'p-3'].map((id) => ({ id, name: `Product ${id}`, category: 'Flower' })));
  if (products.error) throw new Error(`adding the products: ${products.error.message}`);
});
afterAll(() => server?.close());

describe('profiles: get by user_id (single), insert when missing, update', () => {
  it('are read by user_id as one object, created at sign-up from the email and the metadata name', async () => {
    const { data, error } = await alice.client.from('profiles').select('*').eq('user_id', alice.id).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({
      user_id: alice.id,
      email: 'alice@calls.example',
      full_name: 'Alice Green',
      username: 'alice',
      bio: null,
      avatar_url: null,
    });
    expect(Date.parse(data.trial_ends_at)).toBeGreaterThan(Date.now()); // the trial is running
    const derived = await bob.client.from('profiles').select('username').eq('user_id', bob.id).single();
    expect(derived.data).toEqual({ username: 'bob_grey_buds' });
  });

  it("are not found (PGRST116, 406) for another member's id", async () => {
    const answer = await bob.client.from('profiles').select('*').eq('user_id', alice.id).single();
    expectError(answer, 'PGRST116', 406);
    expect(answer.data).toBeNull();
  });

  it('are created by their owner when missing: PGRST116 first, then insert', async () => {
    // The not-found fallback of §profile-creation (the sign-up trigger normally made the profile already).
    expectOk(await service.from('profiles').delete().eq('user_id', bob.id), 204);
    const missing = await bob.client.from('profiles').select('*').eq('user_id', bob.id).single();
    expectError(missing, 'PGRST116', 406);
    expect(missing.error?.details).toBe('The result contains 0 rows');

    const username = bob.email
      .split('@')[0]
      ?.toLowerCase()
      .replace(/[^a-z0-9_]/g, '_');
    const created = await bob.client
      .from('profiles')
      .insert({ user_id: bob.id, email: bob.email, full_name: 'Bob Grey', username })
      .select()
      .single();
    expectOk(created, 201);
    expect(created.data).toMatchObject({
      user_id: bob.id,
      email: bob.email,
      full_name: 'Bob Grey',
      username: 'bob_grey_buds',
    });
    // The server starts the trial, whatever the browser would send.
    expect(Date.parse(created.data.trial_ends_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const again = await bob.client.from('profiles').select('user_id').eq('user_id', bob.id).single();
    expect(again.data).toEqual({ user_id: bob.id });
  });

  it('are updated (username, full_name, bio, avatar_url) and empty fields saved as null', async () => {
    const values = {
      username: 'alice_g',
      full_name: 'Alice Green-Leaf',
      bio: 'Grower & reviewer since 2015.',
      avatar_url: `${server.url}/storage/v1/object/public/user-uploads/${alice.id}/avatar-1.png`,
    };
    expectOk(await alice.client.from('profiles').update(values).eq('user_id', alice.id), 204);
    const { data } = await alice.client
      .from('profiles')
      .select('username, full_name, bio, avatar_url')
      .eq('user_id', alice.id)
      .single();
    expect(data).toEqual(values);
    expectOk(
      await alice.client.from('profiles').update({ bio: null, avatar_url: null }).eq('user_id', alice.id),
      204,
    );
    const cleared = await alice.client
      .from('profiles')
      .select('bio, avatar_url')
      .eq('user_id', alice.id)
      .single();
    expect(cleared.data).toEqual({ bio: null, avatar_url: null });
  });

  it('refuse a username someone else has, whatever its case, with 23505 (409)', async () => {
    const answer = await bob.client.from('profiles').update({ username: 'ALICE_G' }).eq('user_id', bob.id);
    expectError(answer, '23505', 409);
    const { data } = await bob.client.from('profiles').select('username').eq('user_id', bob.id).single();
    expect(data).toEqual({ username: 'bob_grey_buds' });
  });

  it('refuse what the owner may not set: a longer trial, an email that is not theirs (42501, 403)', async () => {
    expectError(
      await alice.client
        .from('profiles')
        .update({ trial_ends_at: new Date(Date.now() + 3650 * DAY).toISOString() })
        .eq('user_id', alice.id),
      '42501',
      403,
    );
    expectError(
      await alice.client.from('profiles').update({ email: bob.email }).eq('user_id', alice.id),
      '42501',
      403,
    );
  });

  it('refuse an empty string (the form saves it as null) with 23514 (400)', async () => {
    expectError(
      await alice.client.from('profiles').update({ username: '' }).eq('user_id', alice.id),
      '23514',
      400,
    );
  });
});

describe('privacy_settings: select single (PGRST116 when missing), upsert on user_id', () => {
  const settings = {
    profile_visibility: 'private',
    show_email: true,
    show_activity: false,
    allow_analytics: false,
    allow_marketing: true,
    data_processing_consent: true,
    auto_delete_inactive: true,
    inactive_period_months: 36,
  };

  it('have no row until first saved: .single() answers PGRST116 (the panel keeps the defaults)', async () => {
    const answer = await alice.client.from('privacy_settings').select('*').eq('user_id', alice.id).single();
    expectError(answer, 'PGRST116', 406);
    expect(answer.data).toBeNull();
  });

  it('are saved by upsert with user_id and the eight settings, one row per user', async () => {
    expectOk(
      await alice.client
        .from('privacy_settings')
        .upsert({ user_id: alice.id, ...settings }, { onConflict: 'user_id' }),
      201,
    );
    const changed = {
      ...settings,
      profile_visibility: 'friends',
      show_email: false,
      inactive_period_months: 60,
    };
    expectUpserted(
      await alice.client
        .from('privacy_settings')
        .upsert({ user_id: alice.id, ...changed }, { onConflict: 'user_id' }),
    );
    const { data, error } = await alice.client
      .from('privacy_settings')
      .select('*')
      .eq('user_id', alice.id)
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ user_id: alice.id, ...changed });
    const { count } = await service
      .from('privacy_settings')
      .select('*', { count: 'exact', head: true })
      .eq('user_id', alice.id);
    expect(count).toBe(1);
  });

  it('start with every optional sharing setting off when a row is created without values', async () => {
    const { data } = await bob.client.from('privacy_settings').insert({ user_id: bob.id }).select().single();
    expect(data).toMatchObject({
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

  it("cannot be upserted onto another member's row (42501, 403), nor read by them", async () => {
    const answer = await bob.client
      .from('privacy_settings')
      .upsert({ user_id: alice.id, ...settings, show_email: true }, { onConflict: 'user_id' });
    expectError(answer, '42501', 403);
    expectError(
      await bob.client.from('privacy_settings').select('*').eq('user_id', alice.id).single(),
      'PGRST116',
      406,
    );
  });

  it('refuse values outside the options with 23514 (400)', async () => {
    for (const bad of [{ profile_visibility: 'everyone' }, { inactive_period_months: 18 }]) {
      expectError(
        await alice.client
          .from('privacy_settings')
          .upsert({ user_id: alice.id, ...settings, ...bad }, { onConflict: 'user_id' }),
        '23514',
        400,
      );
    }
  });
});

describe('product_votes, product_comments, saved_articles: by user_id newest first; delete saved by user_id and id', () => {
  let savedIds: string[] = [];

  it('list the owner’s rows newest first', async () => {
    for (const product of ['p-1', 'p-2', 'p-3']) {
      expectOk(
        await alice.client
          .from('product_votes')
          .insert({ user_id: alice.id, product_id: product, vote_type: 'gas' }),
        201,
      );
      expectOk(
        await alice.client
          .from('product_comments')
          .insert({ user_id: alice.id, product_id: product, content: `About ${product}` }),
        201,
      );
      expectOk(
        await alice.client.from('saved_articles').insert({
          user_id: alice.id,
          article_title: `Story ${product}`,
          article_summary: 'Prices fell for the third month.',
          article_image: 'https://news.example/img/1.jpg',
          article_source: 'Cannabis Wire',
          article_category: 'Business',
          article_url: `https://news.example/${product}`,
        }),
        201,
      );
    }
    const votes = await alice.client
      .from('product_votes')
      .select('*')
      .eq('user_id', alice.id)
      .order('created_at', { ascending: false });
    expect(votes.error).toBeNull();
    expect(votes.data?.map((row) => [row.product_id, row.vote_type])).toEqual([
      ['p-3', 'gas'],
      ['p-2', 'gas'],
      ['p-1', 'gas'],
    ]);
    const comments = await alice.client
      .from('product_comments')
      .select('*')
      .eq('user_id', alice.id)
      .order('created_at', { ascending: false });
    expect(comments.data?.map((row) => row.content)).toEqual(['About p-3', 'About p-2', 'About p-1']);
    const saved = await alice.client
      .from('saved_articles')
      .select('*')
      .eq('user_id', alice.id)
      .order('saved_at', { ascending: false });
    expect(saved.data?.map((row) => row.article_title)).toEqual(['Story p-3', 'Story p-2', 'Story p-1']);
    expect(saved.data?.[0]).toMatchObject({
      article_summary: 'Prices fell for the third month.',
      article_image: 'https://news.example/img/1.jpg',
      article_source: 'Cannabis Wire',
      article_category: 'Business',
      article_url: 'https://news.example/p-3',
    });
    savedIds = (saved.data ?? []).map((row) => row.id as string);
  });

  it('keep votes and saved articles private; comments are public (decision 036)', async () => {
    for (const table of ['product_votes', 'saved_articles']) {
      const { data, error } = await bob.client.from(table).select('*').eq('user_id', alice.id);
      expect({ table, error, data }).toEqual({ table, error: null, data: [] });
    }
    const { data } = await anon.from('product_comments').select('content').eq('user_id', alice.id);
    expect(data).toHaveLength(3);
  });

  it('allow one vote per member per product (23505, 409)', async () => {
    expectError(
      await alice.client
        .from('product_votes')
        .insert({ user_id: alice.id, product_id: 'p-1', vote_type: 'pass' }),
      '23505',
      409,
    );
  });

  it('delete a saved article by user_id and id, and only the owner’s', async () => {
    const [first] = savedIds;
    const byOther = await bob.client
      .from('saved_articles')
      .delete({ count: 'exact' })
      .eq('user_id', alice.id)
      .eq('id', first as string);
    expect(byOther).toMatchObject({ error: null, status: 204, count: 0 });
    expectOk(
      await alice.client
        .from('saved_articles')
        .delete()
        .eq('user_id', alice.id)
        .eq('id', first as string),
      204,
    );
    const { data } = await alice.client
      .from('saved_articles')
      .select('id')
      .eq('user_id', alice.id)
      .order('saved_at', { ascending: false });
    expect(data?.map((row) => row.id)).toEqual(savedIds.slice(1));
  });

  it('refuse saving the same article twice (23505, 409)', async () => {
    expectError(
      await alice.client.from('saved_articles').insert({
        user_id: alice.id,
        article_title: 'Again',
        article_url: 'https://news.example/p-2',
      }),
      '23505',
      409,
    );
  });
});

describe('scammer_subscriptions: latest, active and unexpired, upsert, cancel', () => {
  const latest = (member: Member) =>
    member.client
      .from('scammer_subscriptions')
      .select('*')
      .eq('user_id', member.id)
      .order('created_at', { ascending: false })
      .limit(1)
      .maybeSingle();
  const activeUnexpired = (member: Member) =>
    member.client
      .from('scammer_subscriptions')
      .select('*')
      .eq('user_id', member.id)
      .eq('status', 'active')
      .gt('expires_at', new Date().toISOString())
      .maybeSingle();
  const subscribe = (member: Member, expiresAt = oneMonthAhead()) =>
    member.client
      .from('scammer_subscriptions')
      .upsert(
        { user_id: member.id, subscription_type: 'monthly', status: 'active', expires_at: expiresAt },
        { onConflict: 'user_id' },
      );
  const access = async (member: Member) => (await member.client.rpc('has_scammer_access')).data;

  it('go from none to active to cancelled (access until the expiry) to active again, written by the server', async () => {
    // End Bob's trial, so access comes from the subscription only.
    expectOk(
      await service
        .from('profiles')
        .update({ trial_ends_at: new Date(Date.now() - DAY).toISOString() })
        .eq('user_id', bob.id),
      204,
    );
    expect(await latest(bob)).toMatchObject({ error: null, data: null });
    expect(await access(bob)).toBe(false);

    // Issue 22 (decision 131): the member's own upsert is refused; the server (here: the service key,
    // as the demo activation and the payment webhook do) writes the row.
    expectError(await subscribe(bob), '42501', 403);
    expectOk(await subscribe({ ...bob, client: service }), 201);
    expect((await latest(bob)).data).toMatchObject({
      user_id: bob.id,
      subscription_type: 'monthly',
      status: 'active',
    });
    expect((await activeUnexpired(bob)).data).toMatchObject({ status: 'active' });
    expect(await access(bob)).toBe(true);

    // The member cannot cancel through the data API either (the subscription-cancel function does).
    const own = await bob.client
      .from('scammer_subscriptions')
      .update({ status: 'cancelled' }, { count: 'exact' })
      .eq('user_id', bob.id);
    expect(own).toMatchObject({ error: null, count: 0 });
    expectOk(
      await service.from('scammer_subscriptions').update({ status: 'cancelled' }).eq('user_id', bob.id),
      204,
    );
    expect((await latest(bob)).data).toMatchObject({ status: 'cancelled' });
    expect(await activeUnexpired(bob)).toMatchObject({ error: null, data: null });
    // Cancelled at the end of the period: access continues until the expiry (the Terms).
    expect(await access(bob)).toBe(true);

    expectUpserted(await subscribe({ ...bob, client: service }));
    expect(await access(bob)).toBe(true);
    const { count } = await service
      .from('scammer_subscriptions')
      .select('*', { count: 'exact', head: true })
      .eq('user_id', bob.id);
    expect(count).toBe(1);
  });

  it('refuse an owner any write: activating, extending, moving (42501, 403, or no row)', async () => {
    expectError(await subscribe(bob, new Date(Date.now() + 3650 * DAY).toISOString()), '42501', 403);
    const extend = await bob.client
      .from('scammer_subscriptions')
      .update(
        { status: 'active', expires_at: new Date(Date.now() + 400 * DAY).toISOString() },
        { count: 'exact' },
      )
      .eq('user_id', bob.id);
    expect(extend).toMatchObject({ error: null, count: 0 });
    const row = (await latest(bob)).data as { expires_at: string };
    expect(Date.parse(row.expires_at)).toBeLessThan(Date.now() + 40 * DAY);
  });

  it("are not another member's to read or cancel", async () => {
    expect(await latest({ ...bob, client: alice.client })).toMatchObject({ error: null, data: null });
    const cancel = await alice.client
      .from('scammer_subscriptions')
      .update({ status: 'cancelled' }, { count: 'exact' })
      .eq('user_id', bob.id);
    expect(cancel).toMatchObject({ error: null, status: 204, count: 0 });
    expect(await access(bob)).toBe(true);
  });
});

describe('user_roles: get where role is admin, insert', () => {
  const adminRow = (member: Member) =>
    member.client
      .from('user_roles')
      .select('role')
      .eq('user_id', member.id)
      .eq('role', 'admin')
      .maybeSingle();

  it('tell the support account it is admin and anyone else that they are not', async () => {
    expect(await adminRow(admin)).toMatchObject({ error: null, data: { role: 'admin' } });
    expect(await adminRow(alice)).toMatchObject({ error: null, data: null });
    // With .single() "not an admin" is the not-found code (§table-calls "Codes the page relies on").
    expectError(
      await alice.client
        .from('user_roles')
        .select('role')
        .eq('user_id', alice.id)
        .eq('role', 'admin')
        .single(),
      'PGRST116',
      406,
    );
    expect((await admin.client.rpc('has_role', { _role: 'admin' })).data).toBe(true);
    expect((await alice.client.rpc('has_role', { _role: 'admin' })).data).toBe(false);
  });

  it('refuse a member granting themselves the role (42501, 403); a duplicate grant is 23505 (409)', async () => {
    expectError(
      await alice.client.from('user_roles').insert({ user_id: alice.id, role: 'admin' }),
      '42501',
      403,
    );
    expectError(await anon.from('user_roles').insert({ user_id: alice.id, role: 'admin' }), '42501', 401);
    expectError(
      await admin.client.from('user_roles').insert({ user_id: admin.id, role: 'admin' }),
      '23505',
      409,
    );
    expect(await adminRow(alice)).toMatchObject({ error: null, data: null });
  });
});

describe('admin_posts: published newest first, insert by an admin, delete by id', () => {
  const post = (title: string, status = 'published') => ({
    title,
    content: `${title}: details inside.`,
    author_id: admin.id,
    featured: false,
    media_urls: [`${server.url}/storage/v1/object/public/community-review-media/admin-posts/a1.jpg`],
    status,
  });
  let firstId = '';

  it('are created by admins and read by anyone once published, newest first', async () => {
    const first = await admin.client
      .from('admin_posts')
      .insert({ ...post('Harvest festival'), featured: true })
      .select()
      .single();
    expectOk(first, 201);
    expect(first.data).toMatchObject({ ...post('Harvest festival'), featured: true, author_id: admin.id });
    firstId = first.data.id;
    expectOk(await admin.client.from('admin_posts').insert(post('Second')), 201);
    expectOk(await admin.client.from('admin_posts').insert(post('Draft', 'draft')), 201);

    for (const client of [anon, alice.client]) {
      const { data, error } = await client
        .from('admin_posts')
        .select('*')
        .eq('status', 'published')
        .order('created_at', { ascending: false });
      expect(error).toBeNull();
      expect(data?.map((row) => row.title)).toEqual(['Second', 'Harvest festival']);
    }
    const drafts = await anon.from('admin_posts').select('*').eq('status', 'draft');
    expect(drafts).toMatchObject({ error: null, data: [] });
  });

  it('refuse posts by non-admins (42501: 403 for a member, 401 for a visitor)', async () => {
    expectError(
      await alice.client.from('admin_posts').insert({ ...post('Mine'), author_id: alice.id }),
      '42501',
      403,
    );
    expectError(await anon.from('admin_posts').insert(post('Anonymous')), '42501', 401);
  });

  it('are deleted by id by admins only', async () => {
    const byMember = await alice.client.from('admin_posts').delete({ count: 'exact' }).eq('id', firstId);
    expect(byMember).toMatchObject({ error: null, status: 204, count: 0 });
    expectOk(await admin.client.from('admin_posts').delete().eq('id', firstId), 204);
    const { data } = await anon.from('admin_posts').select('title').eq('status', 'published');
    expect(data).toEqual([{ title: 'Second' }]);
  });
});

describe('notifications: latest 20, mark one read, mark all unread read', () => {
  const unread = async (member: Member) =>
    (
      await member.client
        .from('notifications')
        .select('*', { count: 'exact', head: true })
        .eq('user_id', member.id)
        .eq('is_read', false)
    ).count;

  it('are sent by admins and read by their member, latest 20 newest first', async () => {
    for (let index = 1; index <= 25; index++) {
      expectOk(
        await admin.client
          .from('notifications')
          .insert({ user_id: alice.id, title: `Notice ${index}`, message: `Message ${index}` }),
        201,
      );
    }
    const { data, error } = await alice.client
      .from('notifications')
      .select('*')
      .eq('user_id', alice.id)
      .order('created_at', { ascending: false })
      .limit(20);
    expect(error).toBeNull();
    expect(data).toHaveLength(20);
    expect(data?.[0]).toMatchObject({ title: 'Notice 25', message: 'Message 25', is_read: false });
    expect(data?.[19]).toMatchObject({ title: 'Notice 6' });
    expect(await unread(alice)).toBe(25);
  });

  it('are marked read one by one (by id) and all at once (the unread ones)', async () => {
    const { data: latest } = await alice.client
      .from('notifications')
      .select('id')
      .eq('user_id', alice.id)
      .order('created_at', { ascending: false })
      .limit(1)
      .single();
    const byOther = await bob.client
      .from('notifications')
      .update({ is_read: true }, { count: 'exact' })
      .eq('id', latest?.id);
    expect(byOther).toMatchObject({ error: null, status: 204, count: 0 });
    expectOk(await alice.client.from('notifications').update({ is_read: true }).eq('id', latest?.id), 204);
    expect(await unread(alice)).toBe(24);
    const all = await alice.client
      .from('notifications')
      .update({ is_read: true }, { count: 'exact' })
      .eq('user_id', alice.id)
      .eq('is_read', false);
    expect(all).toMatchObject({ error: null, status: 204, count: 24 });
    expect(await unread(alice)).toBe(0);
  });

  it('let their member change is_read only, and send none themselves (42501, 403)', async () => {
    const { data: one } = await alice.client
      .from('notifications')
      .select('id')
      .eq('user_id', alice.id)
      .limit(1)
      .single();
    expectError(
      await alice.client.from('notifications').update({ title: 'You won a prize' }).eq('id', one?.id),
      '42501',
      403,
    );
    expectError(
      await alice.client.from('notifications').insert({ user_id: alice.id, title: 'Self', message: 'To me' }),
      '42501',
      403,
    );
  });
});

describe('scammer_reports: insert (and its rate limit)', () => {
  const report = (reporter: string) => ({
    // The reporter's confirmation (decision 200).
    truth_confirmed_at: new Date().toISOString(),
    scammer_name: 'Shady Sam',
    scammer_description: 'Sells fake lab results.',
    incident_details: 'Paid 300 dollars for an ounce that never arrived; phone off since.',
    location: 'Denver, CO',
    business_name: 'Sam Supplies LLC',
    contact_info: 'sam@shady.example, +1 555 0100',
    amount_scammed: 300.5,
    date_of_incident: isoDate(-3),
    reporter_user_id: reporter,
  });

  it('are submitted by a signed-in member as themselves, stored exactly, with status submitted', async () => {
    expectOk(await alice.client.from('scammer_reports').insert(report(alice.id)), 201);
    const { data, error } = await alice.client
      .from('scammer_reports')
      .select('*')
      .eq('reporter_user_id', alice.id)
      .single();
    expect(error).toBeNull();
    // The confirmation's time is the database's own (decision 200), not the one sent.
    const { truth_confirmed_at: _sent, ...sent } = report(alice.id);
    expect(data).toMatchObject({ ...sent, status: 'submitted' });
    expect(Date.parse(data?.truth_confirmed_at)).not.toBeNaN();
  });

  it('keep empty optional fields as null', async () => {
    const { location, business_name, contact_info, amount_scammed, date_of_incident, ...required } = report(
      bob.id,
    );
    const row = {
      ...required,
      location: null,
      business_name: null,
      contact_info: null,
      amount_scammed: null,
    };
    expectOk(await bob.client.from('scammer_reports').insert({ ...row, date_of_incident: null }), 201);
    const { data } = await bob.client
      .from('scammer_reports')
      .select('*')
      .eq('reporter_user_id', bob.id)
      .single();
    const { truth_confirmed_at: _sent, ...stored } = row;
    expect(data).toMatchObject({ ...stored, date_of_incident: null, status: 'submitted' });
  });

  it('refuse visitors (401), reports in another member’s name and claimed statuses (403)', async () => {
    const { reporter_user_id: _ignored, ...withoutReporter } = report(alice.id);
    expectError(await anon.from('scammer_reports').insert(withoutReporter), '42501', 401);
    expectError(await bob.client.from('scammer_reports').insert(report(alice.id)), '42501', 403);
    expectError(
      await bob.client.from('scammer_reports').insert({ ...report(bob.id), status: 'published' }),
      '42501',
      403,
    );
  });

  it('refuse an incident date in the future (23514, 400)', async () => {
    const answer = await alice.client
      .from('scammer_reports')
      .insert({ ...report(alice.id), date_of_incident: isoDate(5) });
    expectError(answer, '23514', 400);
    expect(answer.error?.message).toBe('Incident date cannot be in the future.');
  });

  it('are limited to 3 per 15 minutes per member: the report flow’s check, then the insert (429 "rate limit")', async () => {
    const carol = await signedInUser(server, { email: 'carol@calls.example' });
    const check = () =>
      carol.client.rpc('global_rate_limit_check', {
        action_type_param: 'scammer_report',
        max_attempts: 3,
        time_window_minutes: 15,
        max_ip_attempts: 10,
      });
    for (let index = 0; index < 3; index++) {
      expect(await check()).toMatchObject({ error: null, data: true });
      expectOk(await carol.client.from('scammer_reports').insert(report(carol.id)), 201);
    }
    expect(await check()).toMatchObject({ error: null, data: false });
    // A browser skipping the check still meets the limit at the table.
    const fourth = await carol.client.from('scammer_reports').insert(report(carol.id));
    expectError(fourth, 'PT429', 429);
    expect(fourth.error?.message).toContain('rate limit');
    const { count } = await service
      .from('scammer_reports')
      .select('*', { count: 'exact', head: true })
      .eq('reporter_user_id', carol.id);
    expect(count).toBe(3);
  });
});

describe('bookings: insert as a visitor and as a member', () => {
  const booking = (userId: string | null) => ({
    full_name: 'Brand Owner',
    email: 'brand@example.com',
    phone: '+1 (555) 010-0200',
    company_name: 'Sunset Farms',
    product_name: 'Sunset Gummies',
    product_description: 'Fruit gummies, 10 mg each.',
    product_category: 'Edibles',
    booking_date: isoDate(5),
    booking_time: '14:30',
    special_requests: 'Morning preferred.',
    user_id: userId,
  });

  it('are inserted anonymously by visitors and as themselves by members, stored exactly', async () => {
    expectOk(await anon.from('bookings').insert(booking(null)), 201);
    expectOk(await alice.client.from('bookings').insert(booking(alice.id)), 201);
    const { data } = await service.from('bookings').select('*').order('created_at');
    expect(data).toEqual([
      expect.objectContaining(booking(null)),
      expect.objectContaining(booking(alice.id)),
    ]);
  });

  it('are read by their member and admins only; a visitor cannot read back what they sent', async () => {
    expect((await admin.client.from('bookings').select('*')).data).toHaveLength(2);
    const own = await alice.client.from('bookings').select('*');
    expect(own.data?.map((row) => row.user_id)).toEqual([alice.id]);
    expect(await bob.client.from('bookings').select('*')).toMatchObject({ error: null, data: [] });
    expect(await anon.from('bookings').select('*')).toMatchObject({ error: null, data: [] });
    // PostgREST semantics: .insert().select() needs read rights too, so the booking form must not chain it.
    expectError(await anon.from('bookings').insert(booking(null)).select(), '42501', 401);
  });

  it('refuse a booking in another member’s name (403; 401 for a visitor)', async () => {
    expectError(await bob.client.from('bookings').insert(booking(alice.id)), '42501', 403);
    expectError(await anon.from('bookings').insert(booking(alice.id)), '42501', 401);
    const { count } = await service.from('bookings').select('*', { count: 'exact', head: true });
    expect(count).toBe(2);
  });

  it('refuse what the form would not send: no date, a date in the past, a slot outside hours', async () => {
    const { booking_date: _date, ...undated } = booking(null);
    expectError(await anon.from('bookings').insert(undated), '23502', 400);
    expectError(
      await anon.from('bookings').insert({ ...booking(null), booking_date: isoDate(-5) }),
      '23514',
      400,
    );
    expectError(
      await anon.from('bookings').insert({ ...booking(null), booking_time: '23:00' }),
      '23514',
      400,
    );
  });
});

describe('remote procedures', () => {
  it('progressive_rate_limit_check(action_type_param, base_max_attempts, time_window_minutes) → allowed, delay_seconds', async () => {
    const check = () =>
      anon.rpc('progressive_rate_limit_check', {
        action_type_param: 'auth_signup',
        base_max_attempts: 3,
        time_window_minutes: 60,
      });
    const first = await check();
    expectOk(first, 200);
    expect(first.data).toEqual({
      allowed: true,
      delay_seconds: 0,
      remaining_attempts: 2,
      violation_count: 0,
    });
    await check();
    await check();
    const refused = await check();
    expect(refused.data).toEqual({
      allowed: false,
      delay_seconds: 60,
      remaining_attempts: 0,
      violation_count: 1,
    });
    // §auth-rules: "Too many signup attempts. Please wait N minutes", N = delay_seconds / 60 rounded up.
    expect(Math.ceil(refused.data.delay_seconds / 60)).toBe(1);
  });

  it('progressive_rate_limit_check counts a member by account', async () => {
    const args = { action_type_param: 'auth_reset', base_max_attempts: 2, time_window_minutes: 60 };
    await alice.client.rpc('progressive_rate_limit_check', args);
    await alice.client.rpc('progressive_rate_limit_check', args);
    const refused = await alice.client.rpc('progressive_rate_limit_check', args);
    expect(refused.data).toMatchObject({ allowed: false, delay_seconds: 300 });
    expect((await bob.client.rpc('progressive_rate_limit_check', args)).data).toMatchObject({
      allowed: true,
    });
  });

  it('advanced_content_validation(content_text, field_name, min_length, max_length, allow_html) → is_valid, violations', async () => {
    const validate = (content_text: string) =>
      anon.rpc('advanced_content_validation', {
        content_text,
        field_name: 'full_name',
        min_length: 2,
        max_length: 100,
        allow_html: false,
      });
    expect(await validate('Mary-Jane Green')).toMatchObject({
      error: null,
      status: 200,
      data: { is_valid: true, violations: [] },
    });
    const bad = await validate('<script>alert(1)</script>');
    expect(bad.data).toEqual({
      is_valid: false,
      violations: ['Full name must not contain HTML.', 'Full name must not contain script markup.'],
    });
    expect(`Invalid name: ${bad.data.violations.join(', ')}`).toBe(
      'Invalid name: Full name must not contain HTML., Full name must not contain script markup.',
    );
    expect((await validate('A')).data).toEqual({
      is_valid: false,
      violations: ['Full name must be between 2 and 100 characters.'],
    });
  });

  it('global_rate_limit_check(action_type_param, max_attempts, time_window_minutes, ip_address, max_ip_attempts) → boolean', async () => {
    // The server's rule for social sign-ins (§auth-rules: 3 an hour) holds whatever limits the caller passes.
    const args = {
      action_type_param: 'auth_oauth',
      max_attempts: 1000,
      time_window_minutes: 1,
      max_ip_attempts: 1_000_000,
    };
    const results: unknown[] = [];
    for (let index = 0; index < 4; index++)
      results.push((await bob.client.rpc('global_rate_limit_check', args)).data);
    expect(results).toEqual([true, true, true, false]);
    // A browser cannot name its own address either: the argument is accepted and ignored.
    expect(
      await bob.client.rpc('global_rate_limit_check', { ...args, ip_address: '203.0.113.10' }),
    ).toMatchObject({ error: null, status: 200, data: false });
  });

  it('log_security_event(type, category, action, description, additional_data, risk_level) records the event', async () => {
    const additional = {
      userAgent: 'Mozilla/5.0',
      url: '/news',
      timestamp: new Date().toISOString(),
      csrfToken: 'abcd1234',
      userId: alice.id,
      userEmail: alice.email,
    };
    const logged = await alice.client.rpc('log_security_event', {
      type: 'suspicious_activity',
      category: 'behaviour',
      action: 'rapid_clicks',
      description: 'More than 100 clicks in 60 s',
      additional_data: additional,
      risk_level: 'high',
    });
    expectOk(logged, 200);
    expect(logged.data).toMatch(/^[0-9a-f-]{36}$/);
    const { data } = await admin.client.from('security_events').select('*').eq('id', logged.data).single();
    expect(data).toMatchObject({
      type: 'suspicious_activity',
      category: 'behaviour',
      action: 'rapid_clicks',
      description: 'More than 100 clicks in 60 s',
      additional_data: additional,
      risk_level: 'high',
      user_id: alice.id,
      ip: '127.0.0.1',
    });
    // The log is evidence: its member cannot read it.
    expect(await alice.client.from('security_events').select('*').eq('id', logged.data)).toMatchObject({
      error: null,
      data: [],
    });
  });

  it('log_security_event takes the failure helper’s shape: type, action, message, severity medium', async () => {
    const logged = await bob.client.rpc('log_security_event', {
      type: 'auth_error',
      action: 'signin',
      description: 'Invalid login credentials',
      risk_level: 'medium',
    });
    expectOk(logged, 200);
    const { data } = await service
      .from('security_events')
      .select('category, risk_level, user_id, additional_data')
      .eq('id', logged.data)
      .single();
    expect(data).toEqual({ category: 'general', risk_level: 'medium', user_id: bob.id, additional_data: {} });
  });

  it('log_security_event lets a visitor log low-risk events only; a higher level is kept as a claim', async () => {
    const logged = await anon.rpc('log_security_event', {
      type: 'auth_error',
      action: 'signin',
      description: 'Invalid login credentials',
      risk_level: 'critical',
    });
    expectOk(logged, 200);
    const { data } = await service
      .from('security_events')
      .select('risk_level, user_id, additional_data')
      .eq('id', logged.data)
      .single();
    expect(data).toEqual({
      risk_level: 'low',
      user_id: null,
      additional_data: { claimed_risk_level: 'critical' },
    });
  });

  it('answer bad arguments as the caller’s error (400), never a silent allow', async () => {
    expectError(
      await anon.rpc('progressive_rate_limit_check', {
        action_type_param: "x'); drop table private.rate_limit_attempts; --",
        base_max_attempts: 3,
        time_window_minutes: 60,
      }),
      '22023',
      400,
    );
    expectError(
      await anon.rpc('global_rate_limit_check', { action_type_param: 'report', max_attempts: 0 }),
      '22023',
      400,
    );
    expectError(
      await anon.rpc('advanced_content_validation', { content_text: 'x', min_length: 10, max_length: 5 }),
      '22023',
      400,
    );
    expectError(
      await anon.rpc('log_security_event', { type: 'auth', action: 'x', risk_level: 'severe' }),
      '22023',
      400,
    );
  });
});
