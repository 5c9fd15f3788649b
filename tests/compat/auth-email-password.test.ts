import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentOf, locationOf, readOutbox, waitForMail } from '#tests/support/auth.ts';
import { clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { userToken } from '#tests/support/tokens.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/**
 * The product's account journey through supabase-js, exactly as the web app calls it (product §auth-calls):
 * sign up with emailRedirectTo and data.full_name → confirm by the mailed link → sign in → get user
 * → refresh → update password → sign out, with confirmation on and with autoconfirm.
 */

const PASSWORD = 'correct horse battery';

describe('email and password accounts (confirmation on)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(() => server?.close());

  it('signs up, confirms by the mailed link, and lives a whole session', async () => {
    const supabase = clientFor(server);
    const email = uniqueEmail('journey');
    const emailRedirectTo = `${server.siteUrl}/email-confirmed`;

    const { data: signedUp, error: signUpError } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo, data: { full_name: 'Jane Grower' } },
    });
    expect(signUpError).toBeNull();
    expect(signedUp.session).toBeNull();
    expect(signedUp.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Jane Grower', email, email_verified: false },
    });
    expect(signedUp.user?.email_confirmed_at).toBeUndefined();
    expect(signedUp.user?.confirmation_sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(signedUp.user?.identities).toHaveLength(1);

    // Not confirmed yet: GoTrue's email_not_confirmed.
    const early = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'signup');
    expect(mail.subject).toBe('Confirm your HighGrade account');
    expect(mail.html).toContain('HighGrade');
    expect(mail.action_url).toContain(`${server.siteUrl}/auth/v1/verify?token=`);
    expect(mail.action_url).toContain(`redirect_to=${encodeURIComponent(emailRedirectTo)}`);

    // The link, opened in a browser (no API key), redirects to the confirmation page with a session.
    const { status, location } = await locationOf(mail.action_url as string);
    expect(status).toBe(303);
    expect(location.startsWith(`${emailRedirectTo}#`)).toBe(true);
    const fragment = fragmentOf(location);
    expect(fragment).toMatchObject({ token_type: 'bearer', type: 'signup', expires_in: '3600' });
    expect(fragment.access_token).toBeTruthy();

    // The link works once.
    const again = await locationOf(mail.action_url as string);
    expect(fragmentOf(again.location)).toMatchObject({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });

    const { data: signedIn, error: signInError } = await supabase.auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(signInError).toBeNull();
    const session = signedIn.session;
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session?.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(signedIn.user?.email_confirmed_at).toBeTruthy();
    expect(signedIn.user?.user_metadata).toMatchObject({ email_verified: true, full_name: 'Jane Grower' });

    const { data: got, error: getError } = await supabase.auth.getUser();
    expect(getError).toBeNull();
    expect(got.user?.id).toBe(signedUp.user?.id);
    expect(got.user?.identities?.[0]).toMatchObject({
      provider: 'email',
      identity_data: { email_verified: true },
    });

    const { data: refreshed, error: refreshError } = await supabase.auth.refreshSession();
    expect(refreshError).toBeNull();
    expect(refreshed.session?.refresh_token).not.toBe(session?.refresh_token);
    expect(refreshed.session?.access_token).toBeTruthy();

    const { error: updateError } = await supabase.auth.updateUser({ password: 'a brand new passphrase' });
    expect(updateError).toBeNull();
    const old = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await clientFor(server).auth.signInWithPassword({
      email,
      password: 'a brand new passphrase',
    });
    expect(fresh.error).toBeNull();

    const { error: signOutError } = await supabase.auth.signOut();
    expect(signOutError).toBeNull();
    const after = await clientFor(server).auth.getUser(refreshed.session?.access_token);
    expect(after.error).toMatchObject({ name: 'AuthSessionMissingError' });
  });

  it('signs out each scope: local, others, global', async () => {
    const email = uniqueEmail('scopes');
    const admin = clientFor(server, { key: server.serviceRoleKey });
    await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const devices = [clientFor(server), clientFor(server), clientFor(server), clientFor(server)];
    const tokens: string[] = [];
    for (const device of devices) {
      const { data, error } = await device.auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      tokens.push(data.session?.access_token as string);
    }
    const alive = async () =>
      Promise.all(tokens.map(async (token) => (await clientFor(server).auth.getUser(token)).error === null));

    expect(await (devices[0] as (typeof devices)[0]).auth.signOut({ scope: 'local' })).toEqual({
      error: null,
    });
    expect(await alive()).toEqual([false, true, true, true]);

    expect((await (devices[1] as (typeof devices)[0]).auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await alive()).toEqual([false, true, false, false]);
    const { data: still } = await (devices[1] as (typeof devices)[0]).auth.getSession();
    expect(still.session).not.toBeNull();

    const third = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    tokens.push(third.data.session?.access_token as string);
    expect((await (devices[1] as (typeof devices)[0]).auth.signOut({ scope: 'global' })).error).toBeNull();
    expect(await alive()).toEqual([false, false, false, false, false]);
  });

  it('answers GoTrue errors for the classic mistakes', async () => {
    const supabase = clientFor(server);
    const email = uniqueEmail('mistakes');
    const admin = clientFor(server, { key: server.serviceRoleKey });
    await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });

    const wrong = await supabase.auth.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({ name: 'AuthApiError', status: 400, code: 'invalid_credentials' });
    expect(wrong.error?.message).toBe('Invalid login credentials');
    const nobody = await supabase.auth.signInWithPassword({
      email: uniqueEmail('nobody'),
      password: PASSWORD,
    });
    expect(nobody.error).toMatchObject({ status: 400, code: 'invalid_credentials' });

    const short = await supabase.auth.signUp({ email: uniqueEmail('short'), password: '12345' });
    expect(short.error).toMatchObject({ name: 'AuthWeakPasswordError', status: 422, code: 'weak_password' });
    expect((short.error as unknown as { reasons: string[] }).reasons).toEqual(['length']);
    expect(short.error?.message).toBe('Password should be at least 6 characters.');

    const badEmail = await supabase.auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(badEmail.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(badEmail.error?.message).toBe('Unable to validate email address: invalid format');

    const long = await supabase.auth.signUp({ email: uniqueEmail('long'), password: 'x'.repeat(257) });
    expect(long.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(long.error?.message).toBe('Password cannot be longer than 256 characters');

    // A confirmed address signing up again: GoTrue answers with an obfuscated user (no session, no
    // identities) rather than telling a stranger the address is registered.
    const duplicate = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(duplicate.error).toBeNull();
    expect(duplicate.data.session).toBeNull();
    expect(duplicate.data.user?.identities).toEqual([]);
  });

  it('rejects an expired access token with bad_jwt', async () => {
    const email = uniqueEmail('expired');
    const admin = clientFor(server, { key: server.serviceRoleKey });
    const { data } = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const expired = await userToken(server.jwtSecret, data.user?.id as string, {
      age: 7200,
      expiresIn: -3600,
    });
    const { error } = await clientFor(server).auth.getUser(expired);
    expect(error).toMatchObject({ name: 'AuthApiError', status: 403, code: 'bad_jwt' });
    expect(error?.message).toContain('token is expired');
  });

  it('resends the confirmation; only the newest link works', async () => {
    const email = uniqueEmail('resend');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const first = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'signup');
    expect((await clientFor(server).auth.resend({ type: 'signup', email })).error).toBeNull();
    const second = await waitForMail(server.dataDir, (m) => m.to === email && m.id !== first.id);
    expect(fragmentOf((await locationOf(first.action_url as string)).location).error_code).toBe(
      'otp_expired',
    );
    expect(fragmentOf((await locationOf(second.action_url as string)).location).type).toBe('signup');
    // Nothing to resend once confirmed, and nothing for unknown addresses: the same empty answer.
    expect(await clientFor(server).auth.resend({ type: 'signup', email })).toEqual({
      data: { user: null, session: null },
      error: null,
    });
    expect(
      (await clientFor(server).auth.resend({ type: 'signup', email: uniqueEmail('nobody') })).error,
    ).toBeNull();
  });

  it('sends recovery mail to /auth?tab=reset-confirm and lets the user set a new password', async () => {
    const email = uniqueEmail('recover');
    const admin = clientFor(server, { key: server.serviceRoleKey });
    await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const redirectTo = `${server.siteUrl}/auth?tab=reset-confirm`;
    const { error } = await clientFor(server).auth.resetPasswordForEmail(email, { redirectTo });
    expect(error).toBeNull();
    // The same answer for an address without an account.
    expect(await clientFor(server).auth.resetPasswordForEmail(uniqueEmail('ghost'), { redirectTo })).toEqual({
      data: {},
      error: null,
    });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'recovery');
    expect(mail.subject).toBe('Reset your HighGrade password');
    const { location } = await locationOf(mail.action_url as string);
    expect(location.startsWith(`${redirectTo}#`)).toBe(true);
    const fragment = fragmentOf(location);
    expect(fragment.type).toBe('recovery');

    const supabase = clientFor(server);
    const { error: setError } = await supabase.auth.setSession({
      access_token: fragment.access_token as string,
      refresh_token: fragment.refresh_token as string,
    });
    expect(setError).toBeNull();
    expect((await supabase.auth.updateUser({ password: 'recovered passphrase' })).error).toBeNull();
    expect(
      (await clientFor(server).auth.signInWithPassword({ email, password: 'recovered passphrase' })).error,
    ).toBeNull();
    expect((await readOutbox(server.dataDir)).some((m) => m.to.startsWith('ghost'))).toBe(false);
  });

  it('falls back to SITE_URL for a redirect outside the allow-list', async () => {
    const email = uniqueEmail('redirect');
    await clientFor(server).auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email);
    expect(mail.action_url).toContain(`redirect_to=${encodeURIComponent(server.siteUrl)}`);
    const { location } = await locationOf(mail.action_url as string);
    expect(location.startsWith(`${server.siteUrl}/#`)).toBe(true);
  });
});

describe('email and password accounts (ENABLE_EMAIL_AUTOCONFIRM=true)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ ENABLE_EMAIL_AUTOCONFIRM: 'true' });
  });
  afterAll(() => server?.close());

  it('signs up straight into a session and lives it to the end', async () => {
    const supabase = clientFor(server);
    const email = uniqueEmail('auto');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { full_name: 'Auto Confirmed' } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(await readOutbox(server.dataDir)).toEqual([]);

    expect((await supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
    const { data: signedIn, error: signInError } = await supabase.auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(signInError).toBeNull();
    expect((await supabase.auth.getUser()).data.user?.user_metadata.full_name).toBe('Auto Confirmed');
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.data.session?.refresh_token).not.toBe(signedIn.session?.refresh_token);
    expect((await supabase.auth.updateUser({ password: 'another passphrase' })).error).toBeNull();
    expect((await supabase.auth.signOut()).error).toBeNull();
    expect(
      (await clientFor(server).auth.signInWithPassword({ email, password: 'another passphrase' })).error,
    ).toBeNull();
  });

  it('answers user_already_exists for a second sign-up', async () => {
    const email = uniqueEmail('twice');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const { error } = await clientFor(server).auth.signUp({ email, password: PASSWORD });
    expect(error).toMatchObject({
      status: 422,
      code: 'user_already_exists',
      message: 'User already registered',
    });
  });
});
