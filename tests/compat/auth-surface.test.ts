import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox, waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/** The service's outer surface: discovery endpoints, CORS, disabled sign-in methods, DISABLE_SIGNUP. */

const PASSWORD = 'correct horse battery';

describe('discovery and housekeeping endpoints', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(() => server?.close());

  it('GET /health and /settings answer as GoTrue', async () => {
    const health = await fetch(`${server.url}/auth/v1/health`, { headers: { apikey: server.anonKey } });
    expect(await health.json()).toMatchObject({ name: 'GoTrue' });
    const settings = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } });
    expect(settings.headers.get('cache-control')).toBe('no-store');
    expect(await settings.json()).toMatchObject({
      external: { email: true, google: false, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      passkeys_enabled: false,
    });
  });

  it('GET /.well-known/jwks.json publishes no keys (symmetric signing) and needs no API key', async () => {
    const response = await fetch(`${server.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keys: [] });
  });

  it('answers CORS preflights from any origin and exposes the API version header', async () => {
    const response = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'apikey, authorization, content-type, x-client-info, x-supabase-api-version',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const email = uniqueEmail('cors');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const answer = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        origin: 'https://app.elsewhere.example',
        apikey: server.anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
    expect(answer.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  });

  it('answers GoTrue’s "disabled" errors for methods this platform does not offer', async () => {
    const supabase = clientFor(server);
    expect((await supabase.auth.signInAnonymously()).error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
    });
    expect((await supabase.auth.signUp({ phone: '+15555550100', password: PASSWORD })).error).toMatchObject({
      status: 422,
      code: 'phone_provider_disabled',
    });
    expect(
      (await supabase.auth.signInWithPassword({ phone: '+15555550100', password: PASSWORD })).error,
    ).toMatchObject({
      status: 422,
      code: 'phone_provider_disabled',
    });
    expect((await supabase.auth.signInWithOtp({ phone: '+15555550100' })).error).toMatchObject({
      code: 'phone_provider_disabled',
    });
    // Verifying a phone OTP: the number's format is checked first, as GoTrue does (issue 24).
    expect(
      (await supabase.auth.verifyOtp({ phone: 'not a phone', token: '123456', type: 'sms' })).error,
    ).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid phone number format (E.164 required)',
    });
    expect(
      (await supabase.auth.verifyOtp({ phone: '+1 555 555 0100', token: '123456', type: 'sms' })).error,
    ).toMatchObject({ status: 403, code: 'otp_expired' });
    expect((await supabase.auth.signInWithSSO({ domain: 'company.example' })).error).toMatchObject({
      status: 404,
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    });
    const web3 = await fetch(`${server.url}/auth/v1/token?grant_type=web3`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'ethereum', message: 'x', signature: 'y' }),
    });
    expect(web3.status).toBe(422);
    expect(await web3.json()).toMatchObject({ error_code: 'web3_provider_disabled' });
    const oauth = await supabase.auth.signInWithOAuth({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    });
    const authorize = await fetch(oauth.data.url as string, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ msg: 'Unsupported provider: provider is not enabled' });
    const unknownGrant = await fetch(`${server.url}/auth/v1/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknownGrant.status).toBe(400);
    const unknownRoute = await fetch(`${server.url}/auth/v1/nope`, { headers: { apikey: server.anonKey } });
    expect(unknownRoute.status).toBe(404);
    expect(await unknownRoute.json()).toMatchObject({ error_code: 'not_found' });
  });
});

describe('DISABLE_SIGNUP=true', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ DISABLE_SIGNUP: 'true' });
  });
  afterAll(() => server?.close());

  it('refuses sign-ups, creates no account from a magic-link request, still lets admins invite', async () => {
    const email = uniqueEmail('closed');
    const { error } = await clientFor(server).auth.signUp({ email, password: PASSWORD });
    expect(error).toMatchObject({
      status: 422,
      code: 'signup_disabled',
      message: 'Signups not allowed for this instance',
    });
    expect((await clientFor(server).auth.signInWithOtp({ email })).error).toBeNull();
    expect(await readOutbox(server.dataDir)).toEqual([]);

    const { error: inviteError } = await adminClient(server).auth.admin.inviteUserByEmail(email);
    expect(inviteError).toBeNull();
    await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'invite');
    const settings = await (
      await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } })
    ).json();
    expect((settings as { disable_signup: boolean }).disable_signup).toBe(true);
  });
});
