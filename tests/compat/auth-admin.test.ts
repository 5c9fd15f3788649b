import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentOf, locationOf, waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/** supabase.auth.admin: only the service-role key opens it; users, invitations, generated links. */

const PASSWORD = 'correct horse battery';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
});
afterAll(() => server?.close());

describe('admin API access', () => {
  it('refuses the anon key and user tokens with not_admin, and a missing key with no_authorization', async () => {
    const anon = clientFor(server).auth.admin;
    const calls = [
      () => anon.listUsers(),
      () => anon.createUser({ email: uniqueEmail('nope'), password: PASSWORD }),
      () => anon.getUserById('00000000-0000-4000-8000-000000000000'),
      () => anon.updateUserById('00000000-0000-4000-8000-000000000000', { email: uniqueEmail('x') }),
      () => anon.deleteUser('00000000-0000-4000-8000-000000000000'),
      () => anon.generateLink({ type: 'magiclink', email: uniqueEmail('link') }),
      () => anon.inviteUserByEmail(uniqueEmail('invite')),
    ];
    for (const call of calls) {
      const { error } = await call();
      expect(error).toMatchObject({ name: 'AuthApiError', status: 403, code: 'not_admin' });
    }

    const email = uniqueEmail('member');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const { data } = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    const asUser = await fetch(`${server.url}/auth/v1/admin/users`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${data.session?.access_token}` },
    });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });

    const noKey = await fetch(`${server.url}/auth/v1/admin/users`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error_code: 'no_authorization' });
  });
});

describe('user management', () => {
  it('creates, reads, updates and deletes users', async () => {
    const admin = adminClient(server).auth.admin;
    const email = uniqueEmail('managed');
    const { data: created, error } = await admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: 'Managed Member' },
      app_metadata: { plan: 'trial' },
    });
    expect(error).toBeNull();
    expect(created.user).toMatchObject({
      email,
      app_metadata: { plan: 'trial', provider: 'email', providers: ['email'] },
    });
    // As GoTrue: the metadata as given, and confirming adds only email_verified (issue 24).
    expect(created.user?.user_metadata).toEqual({ full_name: 'Managed Member', email_verified: true });
    const id = created.user?.id as string;
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const duplicate = await admin.createUser({ email, password: PASSWORD });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'email_exists' });

    const { data: fetched } = await admin.getUserById(id);
    expect(fetched.user?.email).toBe(email);

    const newEmail = uniqueEmail('renamed');
    const { data: updated, error: updateError } = await admin.updateUserById(id, {
      email: newEmail,
      user_metadata: { full_name: 'Renamed Member', nickname: 'rm' },
      app_metadata: { plan: null },
      password: 'a different passphrase',
    });
    expect(updateError).toBeNull();
    expect(updated.user).toMatchObject({ email: newEmail });
    expect(updated.user?.user_metadata).toEqual({
      full_name: 'Renamed Member',
      nickname: 'rm',
      email_verified: true,
    });
    const unconfirmed = await admin.createUser({ email: uniqueEmail('as-given'), user_metadata: { a: 1 } });
    expect(unconfirmed.data.user?.user_metadata).toEqual({ a: 1 });
    const linked = await admin.generateLink({
      type: 'invite',
      email: uniqueEmail('invited'),
      options: { data: { team: 'growers' } },
    });
    expect(linked.error).toBeNull();
    expect(linked.data.user?.user_metadata).toEqual({ team: 'growers' });
    expect(updated.user?.app_metadata.plan).toBeUndefined();
    expect(
      (
        await clientFor(server).auth.signInWithPassword({
          email: newEmail,
          password: 'a different passphrase',
        })
      ).error,
    ).toBeNull();

    const weak = await admin.updateUserById(id, { password: '123' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect((await admin.deleteUser(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('soft-deletes: the account stays referenced but can no longer sign in', async () => {
    const admin = adminClient(server).auth.admin;
    const email = uniqueEmail('soft');
    const { data } = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect((await admin.deleteUser(data.user?.id as string, true)).error).toBeNull();
    const { data: kept } = await admin.getUserById(data.user?.id as string);
    expect(kept.user?.deleted_at).toBeTruthy();
    expect(kept.user?.email).not.toBe(email);
    expect(kept.user?.identities).toEqual([]);
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('lists users page by page with GoTrue’s pagination headers', async () => {
    const admin = adminClient(server).auth.admin;
    for (let i = 0; i < 3; i += 1) {
      await admin.createUser({ email: uniqueEmail('page'), password: PASSWORD });
    }
    const response = await fetch(`${server.url}/auth/v1/admin/users?page=1&per_page=2`, {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    expect(response.status).toBe(200);
    const total = Number(response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(response.headers.get('link')).toContain('page=2&per_page=2>; rel="next"');
    expect(response.headers.get('link')).toContain(`page=${Math.ceil(total / 2)}&per_page=2>; rel="last"`);
    const body = (await response.json()) as { users: unknown[]; aud: string };
    expect(body.users).toHaveLength(2);
    expect(body.aud).toBe('authenticated');

    const { data, error } = await admin.listUsers({ page: 2, perPage: 2 });
    expect(error).toBeNull();
    expect(data.users.length).toBeGreaterThan(0);
    expect((data as { total: number }).total).toBe(total);
    const all = await admin.listUsers({ page: 1, perPage: 1000 });
    expect(all.data.users).toHaveLength(total);
    expect(new Set(all.data.users.map((user) => user.id)).size).toBe(total);

    const bad = await fetch(`${server.url}/auth/v1/admin/users?page=-1`, {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    expect(bad.status).toBe(400);
  });
});

describe('invitations and generated links', () => {
  it('invites by mail; the invitee opens the link and chooses a password', async () => {
    const admin = adminClient(server).auth.admin;
    const email = uniqueEmail('invitee');
    const { data, error } = await admin.inviteUserByEmail(email, {
      data: { full_name: 'Invited Person' },
      redirectTo: `${server.siteUrl}/welcome`,
    });
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'invite');
    expect(mail.subject).toBe('You have been invited to HighGrade');
    const { location } = await locationOf(mail.action_url as string);
    const fragment = fragmentOf(location);
    expect(fragment.type).toBe('invite');
    const invitee = clientFor(server);
    await invitee.auth.setSession({
      access_token: fragment.access_token as string,
      refresh_token: fragment.refresh_token as string,
    });
    expect((await invitee.auth.updateUser({ password: PASSWORD })).error).toBeNull();
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    const again = await admin.inviteUserByEmail(email);
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('generates working links of every kind without sending mail', async () => {
    const admin = adminClient(server).auth.admin;
    const email = uniqueEmail('generated');
    const signup = await admin.generateLink({ type: 'signup', email, password: PASSWORD });
    expect(signup.error).toBeNull();
    expect(signup.data.properties).toMatchObject({
      verification_type: 'signup',
      redirect_to: server.siteUrl,
    });
    expect(signup.data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(signup.data.user?.email).toBe(email);
    const confirmed = await clientFor(server).auth.verifyOtp({
      token_hash: signup.data.properties?.hashed_token as string,
      type: 'signup',
    });
    expect(confirmed.error).toBeNull();

    const magic = await admin.generateLink({ type: 'magiclink', email });
    expect((await locationOf(magic.data.properties?.action_link as string)).location).toContain(
      '#access_token=',
    );

    const recovery = await admin.generateLink({
      type: 'recovery',
      email,
      options: { redirectTo: `${server.siteUrl}/auth?tab=reset-confirm` },
    });
    expect(recovery.data.properties?.redirect_to).toBe(`${server.siteUrl}/auth?tab=reset-confirm`);
    const viaCode = await clientFor(server).auth.verifyOtp({
      email,
      token: recovery.data.properties?.email_otp as string,
      type: 'recovery',
    });
    expect(viaCode.error).toBeNull();

    const invite = await admin.generateLink({ type: 'invite', email: uniqueEmail('gen-invite') });
    expect(invite.data.properties?.verification_type).toBe('invite');

    const newEmail = uniqueEmail('gen-new');
    const current = await admin.generateLink({ type: 'email_change_current', email, newEmail });
    expect(current.error).toBeNull();
    expect(current.data.user?.new_email).toBe(newEmail);
    const first = await clientFor(server).auth.verifyOtp({
      token_hash: current.data.properties?.hashed_token as string,
      type: 'email_change',
    });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull();

    const unknown = await admin.generateLink({ type: 'recovery', email: uniqueEmail('ghost') });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const badType = await fetch(`${server.url}/auth/v1/admin/generate_link`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ type: 'sudo', email }),
    });
    expect(badType.status).toBe(400);
  });
});

describe('email change by the user', () => {
  it('needs confirmation from both addresses, then signs in with the new one', async () => {
    const email = uniqueEmail('change');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = clientFor(server);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const newEmail = uniqueEmail('changed');
    const { data, error } = await supabase.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: newEmail });

    const toOld = await waitForMail(
      server.dataDir,
      (m) => m.to === email && m.type === 'email_change_current',
    );
    const toNew = await waitForMail(
      server.dataDir,
      (m) => m.to === newEmail && m.type === 'email_change_new',
    );
    const first = await locationOf(toOld.action_url as string);
    expect(fragmentOf(first.location).message).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    const second = await locationOf(toNew.action_url as string);
    expect(fragmentOf(second.location).type).toBe('email_change');
    expect(
      (await clientFor(server).auth.signInWithPassword({ email: newEmail, password: PASSWORD })).error,
    ).toBeNull();
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('refuses an address another account has', async () => {
    const mine = uniqueEmail('mine');
    const theirs = uniqueEmail('theirs');
    const admin = adminClient(server).auth.admin;
    await admin.createUser({ email: mine, password: PASSWORD, email_confirm: true });
    await admin.createUser({ email: theirs, password: PASSWORD, email_confirm: true });
    const supabase = clientFor(server);
    await supabase.auth.signInWithPassword({ email: mine, password: PASSWORD });
    const { error } = await supabase.auth.updateUser({ email: theirs });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('changes a password only with a fresh reauthentication nonce when that is required', async () => {
    const email = uniqueEmail('nonce');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = clientFor(server);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'reauthentication');
    expect(mail.action_url).toBeNull();
    const nonce = /code: (\d{6})/i.exec(mail.text)?.[1] as string;
    const wrong = await supabase.auth.updateUser({ password: 'new passphrase one', nonce: '000000' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'reauthentication_not_valid' });
    expect((await supabase.auth.updateUser({ password: 'new passphrase one', nonce })).error).toBeNull();
    const same = await supabase.auth.updateUser({ password: 'new passphrase one' });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
  });
});
