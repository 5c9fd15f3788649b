/**
 * Anonymous sign-ins (issue 24, decision 148) through the oldest supabase-js supported (2.109, alias
 * `supabase-js-oldest`) and the one the app ships (the newest): `auth.signInAnonymously`, GoTrue's
 * answer when ENABLE_ANONYMOUS_USERS is off, the `is_anonymous` claim in row-level security, what the
 * product lets an anonymous user do (nothing that changes data), making the account permanent by
 * adding an email address, the admin listing and the account deletion.
 */
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { codeOf, locationOf, waitForMail } from '#tests/support/auth.ts';
import { adminClient } from '#tests/support/clients.ts';
import { startOidcProvider, type TestOidcProvider } from '#tests/support/oidc.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';

const CLIENTS = [
  ['supabase-js 2.109 (the oldest supported)', createOldest as unknown as typeof createApp],
  ['supabase-js of the app (the newest)', createApp],
] as const;

/** A project's own table whose policies tell anonymous users apart, as Supabase's guide writes them. */
const SQL = `
  create table public.anon_notes (
    id bigint generated always as identity primary key,
    owner uuid not null default auth.uid(),
    body text not null
  );
  alter table public.anon_notes enable row level security;
  grant select, insert on public.anon_notes to authenticated;
  create policy "anon_notes: own" on public.anon_notes for select to authenticated
    using (owner = (select auth.uid()));
  create policy "anon_notes: permanent users write" on public.anon_notes as permissive for insert to authenticated
    with check (owner = (select auth.uid()) and ((select auth.jwt() ->> 'is_anonymous')::boolean) is false);
`;

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
}

describe.each(CLIENTS)('%s', (_name, create) => {
  function client(server: ServerProcess): SupabaseClient {
    return create(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
  }

  describe('with ENABLE_ANONYMOUS_USERS off (the default)', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('refuses with GoTrue’s anonymous_provider_disabled and reports the switch in /settings', async () => {
      const { data, error } = await client(server).auth.signInAnonymously();
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 422,
        code: 'anonymous_provider_disabled',
        message: 'Anonymous sign-ins are disabled',
      });
      const settings = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } });
      expect(
        ((await settings.json()) as { external: Record<string, boolean> }).external.anonymous_users,
      ).toBe(false);
    });
  });

  describe('with ENABLE_ANONYMOUS_USERS=true', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess({ ENABLE_ANONYMOUS_USERS: 'true' }, { sql: SQL });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('signs in an anonymous user: is_anonymous on the user and in the token, amr anonymous, role authenticated', async () => {
      const guest = client(server);
      const { data, error } = await guest.auth.signInAnonymously({
        options: { data: { theme: 'dark' }, captchaToken: 'unused' },
      });
      expect(error).toBeNull();
      const session = data.session;
      if (!session) throw new Error('no session');
      expect(data.user).toMatchObject({
        aud: 'authenticated',
        role: 'authenticated',
        email: '',
        phone: '',
        is_anonymous: true,
        app_metadata: {},
        user_metadata: { theme: 'dark' },
        identities: [],
      });
      const claims = claimsOf(session.access_token);
      expect(claims).toMatchObject({
        sub: data.user?.id,
        role: 'authenticated',
        aal: 'aal1',
        is_anonymous: true,
        amr: [{ method: 'anonymous', timestamp: expect.any(Number) }],
      });
      const fetched = await guest.auth.getUser();
      expect(fetched.data.user?.is_anonymous).toBe(true);
      const refreshed = await guest.auth.refreshSession();
      expect(claimsOf(refreshed.data.session?.access_token as string).is_anonymous).toBe(true);
      const settings = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } });
      expect(
        ((await settings.json()) as { external: Record<string, boolean> }).external.anonymous_users,
      ).toBe(true);
    });

    it('lets row-level security tell anonymous users apart with (auth.jwt()->>’is_anonymous’)::boolean', async () => {
      const guest = client(server);
      await guest.auth.signInAnonymously();
      const refused = await guest.from('anon_notes').insert({ body: 'hello' });
      expect(refused.error).toMatchObject({ code: '42501' });
      expect((await guest.from('anon_notes').select('id')).data).toEqual([]);
    });

    it('gives an anonymous user no profile and refuses every product write (decision 148)', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously();
      const id = data.user?.id as string;
      expect((await guest.from('profiles').select('user_id')).data).toEqual([]);
      const profile = await guest.from('profiles').insert({ user_id: id });
      expect(profile.error).toMatchObject({
        code: '42501',
        message: 'Anonymous users cannot change data here',
      });
      const saved = await guest
        .from('saved_articles')
        .insert({ article_url: 'https://example.com/a', article_title: 'A' });
      expect(saved.error).toMatchObject({
        code: '42501',
        message: 'Anonymous users cannot change data here',
      });
      const booking = await guest.from('bookings').insert({});
      expect(booking.error).toMatchObject({ code: '42501' });
      const privacy = await guest
        .from('privacy_settings')
        .upsert({ user_id: id, profile_visibility: 'private' });
      expect(privacy.error).toMatchObject({ code: '42501' });
      const upload = await guest.storage
        .from('user-uploads')
        .upload(`${id}/avatar.png`, new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }));
      expect(upload.error).not.toBeNull();
      const { data: access } = await guest.rpc('has_scammer_access');
      expect(access).toBe(false);
    });

    it('refuses MFA to anonymous users, as GoTrue does', async () => {
      const guest = client(server);
      await guest.auth.signInAnonymously();
      const { error } = await guest.auth.mfa.enroll({ factorType: 'totp' });
      expect(error).toMatchObject({
        status: 403,
        code: 'no_authorization',
        message: 'Anonymous user not allowed to perform these actions',
      });
    });

    it('refuses a password without an email address, as GoTrue does', async () => {
      const guest = client(server);
      await guest.auth.signInAnonymously();
      const { error } = await guest.auth.updateUser({ password: 'a new password 1' });
      expect(error).toMatchObject({
        status: 422,
        code: 'validation_failed',
        message: 'Updating password of an anonymous user without an email or phone is not allowed',
      });
    });

    it('makes the account permanent when an email address is added and confirmed', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously({
        options: { data: { full_name: 'Guest Person' } },
      });
      const id = data.user?.id as string;
      const email = uniqueEmail('converted');
      const update = await guest.auth.updateUser({ email, password: 'a new password 1' });
      expect(update.error).toBeNull();
      expect(update.data.user).toMatchObject({ id, is_anonymous: true, new_email: email });
      const mail = await waitForMail(server.dataDir, (m) => m.to === email);
      const verified = await guest.auth.verifyOtp({ email, token: codeOf(mail), type: 'email_change' });
      expect(verified.error).toBeNull();
      expect(verified.data.user).toMatchObject({
        id,
        email,
        is_anonymous: false,
        app_metadata: { provider: 'email', providers: ['email'] },
      });
      expect(verified.data.user?.identities).toHaveLength(1);
      expect(claimsOf(verified.data.session?.access_token as string).is_anonymous).toBe(false);
      // Now a member: a profile exists, and data can be written.
      const profile = await guest.from('profiles').select('user_id, email, full_name').single();
      expect(profile.data).toEqual({ user_id: id, email, full_name: 'Guest Person' });
      const saved = await guest
        .from('saved_articles')
        .insert({ article_url: 'https://example.com/b', article_title: 'B' });
      expect(saved.error).toBeNull();
      const note = await guest.from('anon_notes').insert({ body: 'now I may' });
      expect(note.error).toBeNull();
      // The password given while anonymous signs in.
      const again = await client(server).auth.signInWithPassword({ email, password: 'a new password 1' });
      expect(again.error).toBeNull();
      expect(again.data.user?.id).toBe(id);
    });

    it('shows is_anonymous in the admin listing, and an admin-confirmed address makes it permanent', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously();
      const id = data.user?.id as string;
      const admin = adminClient(server);
      const listed = await admin.auth.admin.listUsers({ page: 1, perPage: 1000 });
      expect(listed.data.users.find((user) => user.id === id)?.is_anonymous).toBe(true);
      const email = uniqueEmail('admin-converted');
      const updated = await admin.auth.admin.updateUserById(id, { email, email_confirm: true });
      expect(updated.error).toBeNull();
      expect(updated.data.user).toMatchObject({ id, email, is_anonymous: false });
      expect(updated.data.user?.identities?.map((identity) => identity.provider)).toEqual(['email']);
    });

    it('erases an anonymous account through the GDPR deletion', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously();
      const id = data.user?.id as string;
      const exported = await guest.functions.invoke('gdpr-data-export');
      expect(exported.error).toBeNull();
      const deleted = await guest.functions.invoke('gdpr-data-deletion', {
        method: 'DELETE',
        body: { confirm_deletion: true },
      });
      expect(deleted.error).toBeNull();
      const gone = await adminClient(server).auth.admin.getUserById(id);
      expect(gone.error).toMatchObject({ status: 404 });
    });
  });
  describe('linking a social identity (linkIdentity)', () => {
    const CLIENT_ID = 'highgrade-anonymous-test';
    let provider: TestOidcProvider;
    let server: ServerProcess;
    beforeAll(async () => {
      provider = await startOidcProvider(CLIENT_ID);
      server = await startServerProcess({
        ENABLE_ANONYMOUS_USERS: 'true',
        OAUTH_PROVIDER: 'google',
        OAUTH_CLIENT_ID: CLIENT_ID,
        OAUTH_CLIENT_SECRET: 'test-secret',
        OAUTH_ISSUER: provider.issuer,
      });
    });
    afterAll(async () => {
      await server?.close();
      await provider?.close();
    });

    /** The browser's part: follow redirects until back on our own site. */
    async function browse(start: string): Promise<string> {
      let url = start;
      for (let hops = 0; hops < 6; hops += 1) {
        const { status, location } = await locationOf(url);
        if (status < 300 || status >= 400) throw new Error(`${url} answered ${status}`);
        const next = new URL(location, url).toString();
        if (next.startsWith(server.siteUrl) && !next.startsWith(`${server.url}/auth/v1/`)) return next;
        url = next;
      }
      throw new Error('too many redirects');
    }

    async function linkAs(guest: SupabaseClient): Promise<void> {
      const { data, error } = await guest.auth.linkIdentity({
        provider: 'google',
        options: { redirectTo: `${server.siteUrl}/profile`, skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      expect((await browse(data.url as string)).startsWith(`${server.siteUrl}/profile#`)).toBe(true);
    }

    it('makes the account permanent with the provider’s verified address', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously();
      const id = data.user?.id as string;
      const email = uniqueEmail('linked');
      provider.profile = { sub: `anon-${email}`, email, email_verified: true };
      await linkAs(guest);
      const { data: linked } = await adminClient(server).auth.admin.getUserById(id);
      expect(linked.user).toMatchObject({
        id,
        email,
        is_anonymous: false,
        app_metadata: { provider: 'google', providers: ['google'] },
      });
      expect(linked.user?.email_confirmed_at).toBeTruthy();
    });

    it('leaves the account anonymous when the provider’s address is not verified', async () => {
      const guest = client(server);
      const { data } = await guest.auth.signInAnonymously();
      const id = data.user?.id as string;
      const email = uniqueEmail('unverified');
      provider.profile = { sub: `anon-${email}`, email, email_verified: false };
      await linkAs(guest);
      const { data: linked } = await adminClient(server).auth.admin.getUserById(id);
      expect(linked.user).toMatchObject({ id, email: '', is_anonymous: true });
      expect(linked.user?.identities?.map((identity) => identity.provider)).toEqual(['google']);
    });
  });
});
