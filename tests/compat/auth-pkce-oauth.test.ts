import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentOf, locationOf, waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { startOidcProvider, type TestOidcProvider } from '#tests/support/oidc.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signToken, unsignedToken } from '#tests/support/tokens.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/**
 * PKCE and social sign-in through supabase-js, against a real OpenID Connect provider on a local
 * port (oauth2-mock-server): discovery, authorization code + PKCE + nonce, ID tokens, JWKS.
 */

const PASSWORD = 'correct horse battery';
const CLIENT_ID = 'highgrade-test-client';

let provider: TestOidcProvider;
let server: ServerProcess;

beforeAll(async () => {
  provider = await startOidcProvider(CLIENT_ID);
  server = await startServerProcess({
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

/** The browser's part: follow redirects until we are back on our own site. */
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

describe('PKCE for emailed links', () => {
  it('signs up, opens the link, and exchanges the code for a session', async () => {
    const supabase = clientFor(server, { flowType: 'pkce' });
    const email = uniqueEmail('pkce');
    const emailRedirectTo = `${server.siteUrl}/email-confirmed`;
    const { error } = await supabase.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo } });
    expect(error).toBeNull();
    const mail = await waitForMail(server.dataDir, (m) => m.to === email);
    expect(new URL(mail.action_url as string).searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56}$/);
    const { status, location } = await locationOf(mail.action_url as string);
    expect(status).toBe(303);
    const code = new URL(location).searchParams.get('code') as string;
    expect(location.startsWith(`${emailRedirectTo}?code=`)).toBe(true);

    const { data, error: exchangeError } = await supabase.auth.exchangeCodeForSession(code);
    expect(exchangeError).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    // A code works once.
    const again = await fetch(`${server.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('marks a recovery exchange as PASSWORD_RECOVERY', async () => {
    const email = uniqueEmail('pkce-recovery');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = clientFor(server, { flowType: 'pkce' });
    const redirectTo = `${server.siteUrl}/auth?tab=reset-confirm`;
    expect((await supabase.auth.resetPasswordForEmail(email, { redirectTo })).error).toBeNull();
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'recovery');
    const { location } = await locationOf(mail.action_url as string);
    expect(location.startsWith(`${redirectTo}&code=`)).toBe(true);
    const events: string[] = [];
    supabase.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const { data, error } = await supabase.auth.exchangeCodeForSession(
      new URL(location).searchParams.get('code') as string,
    );
    expect(error).toBeNull();
    expect((data as { redirectType?: string }).redirectType).toBe('recovery');
    expect(events).toContain('PASSWORD_RECOVERY');
  });

  it('refuses a wrong code verifier', async () => {
    const supabase = clientFor(server, { flowType: 'pkce' });
    const email = uniqueEmail('pkce-wrong');
    await supabase.auth.signUp({ email, password: PASSWORD });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email);
    const { location } = await locationOf(mail.action_url as string);
    const code = new URL(location).searchParams.get('code') as string;
    const stranger = clientFor(server, { flowType: 'pkce' });
    const attempt = await stranger.auth.exchangeCodeForSession(code);
    expect(attempt.error).toMatchObject({ name: 'AuthPKCECodeVerifierMissingError' });
    const forged = await fetch(`${server.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ auth_code: code, code_verifier: 'y'.repeat(64) }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      code: 'bad_code_verifier',
      message: 'code challenge does not match previously saved code verifier',
    });
  });
});

describe('social sign-in with the configured provider', () => {
  it('reports the provider under external in /settings', async () => {
    const response = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } });
    const settings = (await response.json()) as Record<string, unknown>;
    expect(settings.external).toMatchObject({ google: true, email: true, github: false, phone: false });
    expect(settings).toMatchObject({ disable_signup: false, mailer_autoconfirm: false, saml_enabled: false });
  });

  it('signs in with the implicit flow: provider → callback → session in the fragment', async () => {
    provider.profile = {
      sub: 'oauth-implicit',
      email: 'grower@example.com',
      email_verified: true,
      name: 'Oscar Auth',
    };
    const supabase = clientFor(server);
    const { data, error } = await supabase.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${server.siteUrl}/`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const back = await browse(data.url as string);
    expect(back.startsWith(`${server.siteUrl}/#`)).toBe(true);
    const fragment = fragmentOf(back);
    expect(fragment).toMatchObject({ token_type: 'bearer', expires_in: '3600' });
    expect(fragment.provider_token).toBeTruthy();

    const { data: set, error: setError } = await supabase.auth.setSession({
      access_token: fragment.access_token as string,
      refresh_token: fragment.refresh_token as string,
    });
    expect(setError).toBeNull();
    expect(set.user).toMatchObject({
      email: 'grower@example.com',
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { full_name: 'Oscar Auth', email_verified: true, provider_id: 'oauth-implicit' },
    });
    expect(set.user?.email_confirmed_at).toBeTruthy();
    expect(set.user?.identities?.[0]).toMatchObject({ provider: 'google', id: 'oauth-implicit' });

    // Signing in again finds the same user.
    const second = await browse(
      (
        await clientFor(server).auth.signInWithOAuth({
          provider: 'google',
          options: { skipBrowserRedirect: true },
        })
      ).data.url as string,
    );
    const again = await clientFor(server).auth.getUser(fragmentOf(second).access_token);
    expect(again.data.user?.id).toBe(set.user?.id);
  });

  it('signs in with PKCE: ?code= exchanged for a session with the provider token', async () => {
    provider.profile = {
      sub: 'oauth-pkce',
      email: 'pkce-grower@example.com',
      email_verified: true,
      name: 'Pia Kce',
    };
    const supabase = clientFor(server, { flowType: 'pkce' });
    const { data } = await supabase.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${server.siteUrl}/`, skipBrowserRedirect: true },
    });
    const back = await browse(data.url as string);
    const code = new URL(back).searchParams.get('code') as string;
    expect(code).toBeTruthy();
    const { data: exchanged, error } = await supabase.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(exchanged.session?.provider_token).toBeTruthy();
    expect(exchanged.user?.email).toBe('pkce-grower@example.com');
    const { data: aal } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual([
      'oauth',
    ]);
  });

  it('links a provider identity to an existing account with the same verified address', async () => {
    const email = uniqueEmail('linked');
    const created = await adminClient(server).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    provider.profile = { sub: `sub-${email}`, email, email_verified: true, name: 'Linked Person' };
    const back = await browse(
      (
        await clientFor(server).auth.signInWithOAuth({
          provider: 'google',
          options: { skipBrowserRedirect: true },
        })
      ).data.url as string,
    );
    const { data } = await clientFor(server).auth.getUser(fragmentOf(back).access_token);
    expect(data.user?.id).toBe(created.data.user?.id);
    expect(data.user?.app_metadata.providers).toEqual(['email', 'google']);
    // The password still works.
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it('refuses to join an account on an address the provider has not verified', async () => {
    const email = uniqueEmail('unverified');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    provider.profile = { sub: `sub-${email}`, email, email_verified: false };
    const back = await browse(
      (
        await clientFor(server).auth.signInWithOAuth({
          provider: 'google',
          options: { skipBrowserRedirect: true },
        })
      ).data.url as string,
    );
    expect(fragmentOf(back)).toMatchObject({ error_code: 'provider_email_needs_verification' });
  });

  it('brings a refusal at the provider back to the app as an error, and a state works once', async () => {
    const { data } = await clientFor(server).auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${server.siteUrl}/`, skipBrowserRedirect: true },
    });
    const toProvider = (await locationOf(data.url as string)).location;
    const state = new URL(toProvider).searchParams.get('state') as string;
    const denied = await locationOf(
      `${server.url}/auth/v1/callback?error=access_denied&error_description=The+user+said+no&state=${encodeURIComponent(state)}`,
    );
    expect(fragmentOf(denied.location)).toMatchObject({
      error: 'access_denied',
      error_code: 'bad_oauth_callback',
      error_description: 'The user said no',
    });
    const reused = await locationOf(
      `${server.url}/auth/v1/callback?code=whatever&state=${encodeURIComponent(state)}`,
    );
    expect(fragmentOf(reused.location)).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it('refuses an unconfigured provider and a forged state', async () => {
    const unknown = await fetch(`${server.url}/auth/v1/authorize?provider=github`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error_code: 'validation_failed' });
    const forged = await fetch(`${server.url}/auth/v1/callback?code=abc&state=not-a-state`, {
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it('links and unlinks identities of a signed-in user', async () => {
    const email = uniqueEmail('manual-link');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = clientFor(server);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    provider.profile = { sub: `manual-${email}`, email: `other-${email}`, email_verified: true };
    const { data, error } = await supabase.auth.linkIdentity({
      provider: 'google',
      options: { redirectTo: `${server.siteUrl}/profile`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const back = await browse(data.url as string);
    expect(back.startsWith(`${server.siteUrl}/profile#`)).toBe(true);

    const { data: listed } = await supabase.auth.getUserIdentities();
    expect(listed?.identities.map((identity) => identity.provider).sort()).toEqual(['email', 'google']);
    const google = listed?.identities.find((identity) => identity.provider === 'google');
    expect((await supabase.auth.unlinkIdentity(google as NonNullable<typeof google>)).error).toBeNull();
    const { data: after } = await supabase.auth.getUserIdentities();
    expect(after?.identities).toHaveLength(1);
    const last = await supabase.auth.unlinkIdentity(after?.identities[0] as NonNullable<typeof google>);
    expect(last.error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
  });
});

describe('id_token grant', () => {
  it("signs in with an ID token verified against the provider's keys", async () => {
    provider.profile = { sub: 'native-app-user', email: 'native@example.com', email_verified: true };
    const token = await provider.idToken();
    const { data, error } = await clientFor(server).auth.signInWithIdToken({ provider: 'google', token });
    expect(error).toBeNull();
    expect(data.user?.email).toBe('native@example.com');
    expect(data.session?.access_token).toBeTruthy();
  });

  it('checks the nonce as GoTrue does (SHA-256 of the raw nonce)', async () => {
    const { createHash } = await import('node:crypto');
    const nonce = 'raw-nonce-value';
    const hashed = createHash('sha256').update(nonce).digest('hex');
    const token = await provider.idToken({ nonce: hashed });
    expect(
      (await clientFor(server).auth.signInWithIdToken({ provider: 'google', token, nonce })).error,
    ).toBeNull();
    const wrong = await clientFor(server).auth.signInWithIdToken({
      provider: 'google',
      token,
      nonce: 'other',
    });
    // GoTrue's OAuth-shaped errors (issue 24): no error code, its messages.
    expect(wrong.error).toMatchObject({ status: 400, message: 'Nonces mismatch' });
    const missing = await clientFor(server).auth.signInWithIdToken({ provider: 'google', token });
    expect(missing.error).toMatchObject({
      status: 400,
      message: 'Passed nonce and nonce in id_token should either both exist or not.',
    });
  });

  it('refuses tokens for another audience, forged, unsigned, or for another provider', async () => {
    const otherAudience = await provider.idToken({}, 'someone-else');
    const now = Math.floor(Date.now() / 1000);
    const forged = await signToken(
      'guessed-secret-guessed-secret-guessed',
      { sub: 'attacker', email: 'a@example.com', aud: CLIENT_ID, iss: provider.issuer },
      { expiresIn: 600, header: { alg: 'HS256' } },
    );
    const unsigned = unsignedToken({ sub: 'x', aud: CLIENT_ID, iss: provider.issuer, exp: now + 600 });
    const audience = await clientFor(server).auth.signInWithIdToken({
      provider: 'google',
      token: otherAudience,
    });
    expect(audience.error).toMatchObject({
      status: 400,
      message: 'Unacceptable audience in id_token: [someone-else]',
    });
    for (const token of [forged, unsigned, 'garbage']) {
      const { error } = await clientFor(server).auth.signInWithIdToken({ provider: 'google', token });
      expect(error).toMatchObject({ status: 400, message: 'Bad ID token' });
    }
    // The wire: GoTrue's OAuthError body, whatever the API version asked for.
    for (const version of [{}, { 'X-Supabase-Api-Version': '2024-01-01' }] as Record<string, string>[]) {
      const raw = await fetch(`${server.url}/auth/v1/token?grant_type=id_token`, {
        method: 'POST',
        headers: { apikey: server.anonKey, 'Content-Type': 'application/json', ...version },
        body: JSON.stringify({ provider: 'google', id_token: 'garbage' }),
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toEqual({ error: 'invalid request', error_description: 'Bad ID token' });
    }
    const empty = await fetch(`${server.url}/auth/v1/token?grant_type=id_token`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: 'google' }),
    });
    expect(await empty.json()).toEqual({ error: 'invalid request', error_description: 'id_token required' });
    const wrongProvider = await clientFor(server).auth.signInWithIdToken({
      provider: 'apple',
      token: otherAudience,
    });
    expect(wrongProvider.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});
