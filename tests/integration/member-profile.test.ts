// @databases: both — every privacy setting is decided by RLS and SQL views.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * The public member profile through supabase-js on the real server (issue 21 item 9, decision 146):
 * every combination of profile_visibility, show_email and show_activity as seen by a visitor, another
 * member, an admin and the member themself; case-insensitive usernames; suspended and deleted accounts;
 * hostile input; comment author names; and that nobody lists another member's votes through the data API.
 */

let server: TestServer;
let subject: SignedInUser;
let other: SignedInUser;
let admin: SignedInUser;
let anon: SupabaseClient;
let productId: string;
const username = `Profile_Subject_${Date.now().toString(36)}`;

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer(RELAXED_LIMITS);
  anon = anonClient(server);
  subject = await signedInUser(server, { fullName: 'Pat Subject' });
  other = await signedInUser(server);
  admin = await signedInUser(server, { admin: true });
  const [product] = await sql<{ id: string }>(
    `insert into public.products (name, category, strain_type) values ('Profile Kush', 'Flower', 'hybrid') returning id`,
  );
  productId = product?.id ?? '';
  const updated = await subject.client
    .from('profiles')
    .update({ username, bio: 'Grower since 2019.', avatar_url: 'https://cdn.example.com/pat.png' })
    .eq('user_id', subject.id);
  expect(updated.error).toBeNull();
  const vote = await subject.client.from('product_votes').insert({ product_id: productId, vote_type: 'gas' });
  expect(vote.error).toBeNull();
  const comment = await subject.client
    .from('product_comments')
    .insert({ product_id: productId, content: 'Smooth and <b>loud</b>.' });
  expect(comment.error).toBeNull();
}, 60_000);
afterAll(() => server?.close());

async function setPrivacy(settings: {
  profile_visibility: 'public' | 'private' | 'friends';
  show_email: boolean;
  show_activity: boolean;
}) {
  const saved = await subject.client
    .from('privacy_settings')
    .upsert({ user_id: subject.id, ...settings }, { onConflict: 'user_id' });
  expect(saved.error).toBeNull();
}

const profileAs = async (client: SupabaseClient, name = username) => {
  const { data, error } = await client.rpc('member_profile', { p_username: name });
  expect(error).toBeNull();
  return data as Record<string, unknown>;
};

describe('member_profile', () => {
  it('defaults (no settings row): public, email and activity hidden (decision 193) — to everyone alike', async () => {
    expect(await sql('select 1 from public.privacy_settings where user_id = $1', [subject.id])).toEqual([]);
    for (const client of [anon, other.client, admin.client]) {
      const profile = await profileAs(client);
      expect(profile).toMatchObject({ status: 'visible', username, email: null, show_activity: false });
      expect(profile).not.toHaveProperty('votes');
      expect(profile).not.toHaveProperty('comments');
    }
    // Once the member shows their activity, everyone sees it alike.
    await setPrivacy({ profile_visibility: 'public', show_email: false, show_activity: true });
    for (const client of [anon, other.client, admin.client]) {
      const profile = await profileAs(client);
      expect(profile).toMatchObject({
        status: 'visible',
        username,
        display_name: 'Pat Subject',
        avatar_url: 'https://cdn.example.com/pat.png',
        bio: 'Grower since 2019.',
        email: null,
        show_activity: true,
        is_self: false,
        visibility: null,
        vote_count: 1,
        comment_count: 1,
        votes: [{ product_id: productId, product_name: 'Profile Kush', vote_type: 'gas' }],
        comments: [
          { product_id: productId, product_name: 'Profile Kush', content: 'Smooth and <b>loud</b>.' },
        ],
      });
      expect(typeof profile.member_since).toBe('string');
      expect(profile).not.toHaveProperty('user_id');
    }
    await sql('delete from public.privacy_settings where user_id = $1', [subject.id]);
  });

  it('finds the member whatever the case of the username', async () => {
    expect(await profileAs(anon, username.toLowerCase())).toMatchObject({ status: 'visible', username });
    expect(await profileAs(anon, username.toUpperCase())).toMatchObject({ status: 'visible', username });
  });

  it('every combination of the three settings, for visitor, member, admin and the member themself', async () => {
    for (const profile_visibility of ['public', 'private', 'friends'] as const) {
      for (const show_email of [false, true]) {
        for (const show_activity of [false, true]) {
          await setPrivacy({ profile_visibility, show_email, show_activity });
          for (const client of [anon, other.client, admin.client]) {
            const seen = await profileAs(client);
            if (profile_visibility === 'public') {
              expect(seen.status).toBe('visible');
              expect(seen.email).toBe(show_email ? subject.email : null);
              expect(seen.visibility).toBeNull();
              if (show_activity) expect((seen.votes as unknown[]).length).toBe(1);
              else {
                expect(seen).not.toHaveProperty('votes');
                expect(seen).not.toHaveProperty('comments');
                expect(seen).not.toHaveProperty('vote_count');
              }
            } else {
              // Friends behaves as private until connections exist; neither says which it is.
              expect(seen).toEqual({ status: 'private', username });
            }
          }
          const own = await profileAs(subject.client);
          expect(own).toMatchObject({
            status: 'visible',
            is_self: true,
            visibility: profile_visibility,
            email: show_email ? subject.email : null,
            show_activity,
          });
          expect(own.votes === undefined).toBe(!show_activity);
        }
      }
    }
    await sql('delete from public.privacy_settings where user_id = $1', [subject.id]);
  });

  it('hidden comments and held votes stay off the profile', async () => {
    await setPrivacy({ profile_visibility: 'public', show_email: false, show_activity: true });
    const [hidden] = await sql<{ id: string }>(
      `insert into public.product_comments (user_id, product_id, content, hidden_at)
       values ($1, $2, 'removed by a moderator', now()) returning id`,
      [subject.id, productId],
    );
    expect(hidden?.id).toBeTruthy();
    const profile = await profileAs(anon);
    expect(profile.comment_count).toBe(1);
    expect(JSON.stringify(profile)).not.toContain('removed by a moderator');
    await sql(`update public.product_votes set status = 'held' where user_id = $1`, [subject.id]);
    expect(await profileAs(anon)).toMatchObject({ vote_count: 0, votes: [] });
    await sql(`update public.product_votes set status = 'pending' where user_id = $1`, [subject.id]);
    await sql('delete from public.product_comments where id = $1', [hidden?.id]);
    await sql('delete from public.privacy_settings where user_id = $1', [subject.id]);
  });

  it('an unknown username, a suspended and a deleted account are not found', async () => {
    expect(await profileAs(anon, 'nobody_has_this_name')).toEqual({ status: 'not_found' });
    const suspended = await admin.client.rpc('admin_set_suspended', { member_id: subject.id, suspend: true });
    expect(suspended.error).toBeNull();
    expect(await profileAs(anon)).toEqual({ status: 'not_found' });
    expect(await profileAs(other.client)).toEqual({ status: 'not_found' });
    const restored = await admin.client.rpc('admin_set_suspended', { member_id: subject.id, suspend: false });
    expect(restored.error).toBeNull();
    expect(await profileAs(anon)).toMatchObject({ status: 'visible' });

    const gone = await signedInUser(server);
    const goneName = `gone_${Date.now().toString(36)}`;
    expect(
      (await gone.client.from('profiles').update({ username: goneName }).eq('user_id', gone.id)).error,
    ).toBeNull();
    expect(await profileAs(anon, goneName)).toMatchObject({ status: 'visible' });
    const deleted = await adminClient(server).auth.admin.deleteUser(gone.id);
    expect(deleted.error).toBeNull();
    expect(await profileAs(anon, goneName)).toEqual({ status: 'not_found' });
  });

  it('hostile or malformed usernames get a clear 22023 error, never a server error', async () => {
    for (const bad of [
      '',
      'a'.repeat(65),
      'x'.repeat(10_000),
      '<script>alert(1)</script>',
      "x' or '1'='1",
      `${username}'; drop table public.profiles; --`,
      'Bob Smith!',
      '%',
      '.starts-with-dot',
    ]) {
      const { data, error, status } = await anon.rpc('member_profile', { p_username: bad });
      expect(data).toBeNull();
      expect(status).toBe(400);
      expect(error).toMatchObject({
        code: '22023',
        message:
          'A username uses only letters, digits, _, . and -, starts with a letter, digit or _, and is at most 64 characters.',
      });
    }
    const missing = await anon.rpc('member_profile', {});
    expect(missing.error).not.toBeNull();
    expect(missing.status).toBeLessThan(500);
    expect(await sql('select 1 from public.profiles where user_id = $1', [subject.id])).toHaveLength(1);
  });
});

describe('member_names (comment authors)', () => {
  it('names only members with a public profile who show their activity', async () => {
    const ids = [subject.id, other.id];
    // Without settings (activity hidden by default, decision 193) nobody is named.
    const unnamed = await anon.rpc('member_names', { p_user_ids: ids });
    expect(unnamed).toMatchObject({ error: null, data: [] });
    for (const member of [subject, other]) {
      const shown = await member.client
        .from('privacy_settings')
        .upsert({ user_id: member.id, show_activity: true }, { onConflict: 'user_id' });
      expect(shown.error).toBeNull();
    }
    const named = await anon.rpc('member_names', { p_user_ids: ids });
    expect(named.error).toBeNull();
    // `other` shows their activity with a public profile and the username derived at sign-up.
    const [otherProfile] = await sql<{ username: string }>(
      'select username from public.profiles where user_id = $1',
      [other.id],
    );
    const both = [
      { user_id: subject.id, username, display_name: 'Pat Subject' },
      { user_id: other.id, username: otherProfile?.username, display_name: null },
    ];
    const byId = (a: { user_id: string }, b: { user_id: string }) => a.user_id.localeCompare(b.user_id);
    expect([...(named.data ?? [])].sort(byId)).toEqual(both.sort(byId));

    for (const settings of [
      { profile_visibility: 'public', show_email: true, show_activity: false },
      { profile_visibility: 'private', show_email: true, show_activity: true },
      { profile_visibility: 'friends', show_email: true, show_activity: true },
    ] as const) {
      await setPrivacy(settings);
      const hidden = await other.client.rpc('member_names', { p_user_ids: ids });
      expect(hidden.error).toBeNull();
      expect(hidden.data?.map((row: { user_id: string }) => row.user_id)).toEqual([other.id]);
    }
    await sql('delete from public.privacy_settings where user_id = any($1::uuid[])', [ids]);
  });

  it('refuses more than 100 ids at once', async () => {
    const many = Array.from({ length: 101 }, () => crypto.randomUUID());
    const { error, status } = await anon.rpc('member_names', { p_user_ids: many });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '22023', message: 'Ask for 1 to 100 members at a time.' });
  });
});

describe('the data API keeps votes, profiles and settings to their owner', () => {
  it('no visitor or other member lists another member’s votes, profile or privacy settings', async () => {
    for (const client of [anon, other.client]) {
      for (const table of ['product_votes', 'profiles', 'privacy_settings']) {
        const { data, error } = await client.from(table).select('*').eq('user_id', subject.id);
        if (client === anon && table !== 'product_votes') {
          // Visitors have no grant on these tables at all, or an empty answer: never the row.
          expect(data ?? []).toEqual([]);
        } else {
          expect(error).toBeNull();
          expect(data).toEqual([]);
        }
      }
    }
    const own = await subject.client.from('product_votes').select('vote_type').eq('user_id', subject.id);
    expect(own.data).toEqual([{ vote_type: 'gas' }]);
  });
});
