import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '#server/auth/rate-limit.ts';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { fragmentOf, locationOf, readOutbox, waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { type AuthTestServer, startAuthServer, testDatabase } from '#tests/support/test-server.ts';
import { uniqueEmail } from '#tests/support/users.ts';

const PASSWORD = 'correct horse battery';

const rolesOf = async (server: AuthTestServer, userId: string) =>
  (await server.db.query<{ role: string }>('select role from public.user_roles where user_id = $1', [userId]))
    .rows;

const signIn = (server: AuthTestServer, email: string, password = PASSWORD) =>
  clientFor(server).auth.signInWithPassword({ email, password });

/** Follows the newest mailed link to `email` of `type`: the session it opens (the fragment's tokens). */
async function followMailedLink(server: AuthTestServer, email: string, type: string) {
  const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === type);
  const { location } = await locationOf(mail.action_url as string);
  const session = fragmentOf(location);
  expect(session.access_token).toBeDefined();
  return session;
}

describe('admin bootstrap (product §admin-bootstrap): only a proven mailbox, decision 093', () => {
  const SUPPORT = 'support@highgrade.test';
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({ SUPPORT_EMAIL: SUPPORT, ENABLE_EMAIL_AUTOCONFIRM: 'true' });
  });
  afterAll(() => server?.close());

  it('grants nothing for an email change to SUPPORT_EMAIL, confirmed at once by autoconfirm', async () => {
    const email = uniqueEmail('changer');
    const client = clientFor(server);
    const signedUp = await client.auth.signUp({ email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    const changed = await client.auth.updateUser({ email: SUPPORT });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.email).toBe(SUPPORT);
    expect((await signIn(server, SUPPORT)).error).toBeNull();
    expect(await rolesOf(server, signedUp.data.user?.id as string)).toEqual([]);
    // Back to an address of their own, so the next test can sign up as SUPPORT_EMAIL.
    await server.db.query('delete from auth.users where id = $1', [signedUp.data.user?.id]);
  });

  it('grants nothing for an autoconfirmed sign-up as SUPPORT_EMAIL, nor for its sign-ins', async () => {
    const { data, error } = await clientFor(server).auth.signUp({ email: SUPPORT, password: PASSWORD });
    expect(error).toBeNull();
    expect((await signIn(server, SUPPORT)).error).toBeNull();
    expect(await rolesOf(server, data.user?.id as string)).toEqual([]);
  });

  it('grants nothing for a link made by admin/generate_link (handed out, never mailed)', async () => {
    const { data } = await adminClient(server).auth.admin.generateLink({ type: 'magiclink', email: SUPPORT });
    const { location } = await locationOf(data.properties?.action_link as string);
    expect(fragmentOf(location).access_token).toBeDefined();
    expect(await rolesOf(server, data.user?.id as string)).toEqual([]);
  });

  it('grants the role when a password-reset link mailed to SUPPORT_EMAIL is followed, and leaves the account to the mailbox owner alone', async () => {
    // Whoever signed up as SUPPORT_EMAIL above knows its password and holds a session.
    const squatter = await signIn(server, SUPPORT);
    const userId = squatter.data.user?.id as string;
    expect((await clientFor(server).auth.resetPasswordForEmail(SUPPORT)).error).toBeNull();

    const owner = await followMailedLink(server, SUPPORT, 'recovery');
    expect(await rolesOf(server, userId)).toEqual([{ role: 'admin' }]);
    // The squatter's session and password are gone; the owner's link session is the only one.
    const refreshed = await clientFor(server).auth.refreshSession({
      refresh_token: squatter.data.session?.refresh_token as string,
    });
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await signIn(server, SUPPORT)).error).toMatchObject({ code: 'invalid_credentials' });

    // The owner chooses a password in the session the link opened (the reset page does this).
    const ownerClient = clientFor(server);
    await ownerClient.auth.setSession({
      access_token: owner.access_token as string,
      refresh_token: owner.refresh_token as string,
    });
    expect((await ownerClient.auth.updateUser({ password: 'the owner’s own password' })).error).toBeNull();
    expect((await signIn(server, SUPPORT, 'the owner’s own password')).error).toBeNull();
    expect(await rolesOf(server, userId)).toEqual([{ role: 'admin' }]);
  });

  it('gives nobody else the role, whatever they put in their metadata', async () => {
    const email = uniqueEmail('member');
    const { data } = await adminClient(server).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { role: 'admin', email: SUPPORT },
      app_metadata: { role: 'admin' },
    });
    await signIn(server, email);
    await clientFor(server).auth.resetPasswordForEmail(email);
    await followMailedLink(server, email, 'recovery');
    expect(await rolesOf(server, data.user?.id as string)).toEqual([]);
    const total = await server.db.query<{ n: string }>('select count(*) as n from public.user_roles');
    expect(total.rows[0]?.n).toBe('1');
  });
});

describe('admin bootstrap with confirmation on', () => {
  const SUPPORT = 'support@confirmed.test';
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({ SUPPORT_EMAIL: SUPPORT });
  });
  afterAll(() => server?.close());

  it('grants nothing to an account the admin API marked confirmed, however often it signs in', async () => {
    const { data } = await adminClient(server).auth.admin.createUser({
      email: 'Support@Confirmed.test',
      password: PASSWORD,
      email_confirm: true,
    });
    expect((await signIn(server, SUPPORT)).error).toBeNull();
    expect((await signIn(server, SUPPORT)).error).toBeNull();
    expect(await rolesOf(server, data.user?.id as string)).toEqual([]);
    await server.db.query('delete from auth.users where id = $1', [data.user?.id]);
  });

  it('grants the role once the sign-up confirmation mailed to SUPPORT_EMAIL is followed', async () => {
    const { data, error } = await clientFor(server).auth.signUp({ email: SUPPORT, password: PASSWORD });
    expect(error).toBeNull();
    const userId = data.user?.id as string;
    expect(await rolesOf(server, userId)).toEqual([]);
    await followMailedLink(server, SUPPORT, 'signup');
    expect(await rolesOf(server, userId)).toEqual([{ role: 'admin' }]);
    // The password given at sign-up might have been anyone's: it no longer signs in.
    expect((await signIn(server, SUPPORT)).error).toMatchObject({ code: 'invalid_credentials' });
  });
});

describe('rate limits', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({
      RATE_LIMIT_SIGN_IN_SIGN_UPS: '3',
      RATE_LIMIT_EMAIL_SENT: '3',
      RATE_LIMIT_OTP: '1000',
      SMTP_MAX_FREQUENCY: '60',
    });
  });
  afterAll(() => server?.close());

  it('limits sign-ins per client address with 429 over_request_rate_limit and Retry-After', async () => {
    const email = uniqueEmail('limited');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
    }
    const blocked = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    const { rows } = await server.db.query<{ count: number }>(
      "select count from auth.rate_limits where key like 'ip:signin:%'",
    );
    expect(rows[0]?.count).toBe(4);
  });

  it('sends one mail per address and kind per SMTP_MAX_FREQUENCY, the same answer for unknown addresses', async () => {
    const known = uniqueEmail('known');
    await adminClient(server).auth.admin.createUser({
      email: known,
      password: PASSWORD,
      email_confirm: true,
    });
    const unknown = uniqueEmail('unknown');
    // Password recovery answers GoTrue's {} for an unknown address every time, and so the same {} for
    // a known one asked again within the window, without a second mail (decision 188).
    for (const email of [known, unknown]) {
      expect(await clientFor(server).auth.resetPasswordForEmail(email)).toEqual({ data: {}, error: null });
      expect(await clientFor(server).auth.resetPasswordForEmail(email)).toEqual({ data: {}, error: null });
    }
    // Sign-in links keep the per-address limit, unknown addresses counted too (decision 016).
    const otp = () =>
      clientFor(server).auth.signInWithOtp({ email: unknown, options: { shouldCreateUser: false } });
    expect((await otp()).error).toBeNull();
    const second = await otp();
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(second.error?.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );
    await waitForMail(server.dataDir, (m) => m.to === known && m.type === 'recovery');
    expect(
      (await readOutbox(server.dataDir)).filter((m) => m.to === known && m.type === 'recovery'),
    ).toHaveLength(1);
  });

  it('stops at RATE_LIMIT_EMAIL_SENT mails per hour for the whole instance', async () => {
    const answers: (string | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { error } = await clientFor(server).auth.resetPasswordForEmail(uniqueEmail('budget'));
      answers.push(error?.code);
    }
    // Unknown addresses spend no budget; real mails do (one was sent by the previous test).
    expect(answers).toEqual([undefined, undefined, undefined]);
    const owners = [uniqueEmail('owner'), uniqueEmail('owner'), uniqueEmail('owner')];
    for (const email of owners) {
      await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    }
    const results = [];
    for (const email of owners)
      results.push((await clientFor(server).auth.resetPasswordForEmail(email)).error?.code);
    expect(results).toEqual([undefined, undefined, 'over_email_send_rate_limit']);
  });

  it('keeps its counts in the database, where every server process sees them', async () => {
    if (testDatabase() === 'pglite') {
      // The embedded database belongs to one process; a second limiter over it stands in for one.
      const limiter = new RateLimiter(server.db, server.server.ctx.config.auth, server.jwtSecret);
      await expect(limiter.perIp('signin', '127.0.0.1')).rejects.toMatchObject({
        code: 'over_request_rate_limit',
      });
      await expect(limiter.perIp('signin', '203.0.113.9')).resolves.toBeUndefined();
      return;
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-second-'));
    const second = await startServer(
      loadConfig({
        ...RELAXED_LIMITS,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: server.server.ctx.config.databaseUrl as string,
        JWT_SECRET: server.jwtSecret,
        RATE_LIMIT_SIGN_IN_SIGN_UPS: '3',
      }),
      { logger: false, webDir: process.env.HIGHGRADE_WEB_DIR },
    );
    try {
      // This address already used its 3 sign-ins on the first server: the second one knows.
      const response = await fetch(`${second.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: server.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('other'), password: PASSWORD }),
      });
      expect(response.status).toBe(429);
    } finally {
      await second.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
