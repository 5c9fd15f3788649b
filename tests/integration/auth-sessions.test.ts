// @databases: both — what the database stores and refresh-token rotation under concurrent transactions.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '#tests/support/auth.ts';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type AuthTestServer, startAuthServer } from '#tests/support/test-server.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/**
 * Sessions from the database's side: what is stored (digests, never usable tokens), the access
 * token's claims, refresh-token rotation and replay, one-time-token expiry, the audit log.
 */

const PASSWORD = 'correct horse battery';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(() => server?.close());

async function signedIn(email = uniqueEmail('session')) {
  await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  const supabase = clientFor(server);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email, session: data.session as NonNullable<typeof data.session> };
}

describe('access tokens', () => {
  it("carry GoTrue's claims", async () => {
    const { session, email } = await signedIn();
    expect(decodeProtectedHeader(session.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(session.access_token);
    expect(Object.keys(claims)).toEqual([
      'aud',
      'exp',
      'iat',
      'iss',
      'sub',
      'email',
      'phone',
      'app_metadata',
      'user_metadata',
      'role',
      'aal',
      'amr',
      'session_id',
      'is_anonymous',
    ]);
    expect(claims).toMatchObject({
      aud: 'authenticated',
      iss: `${server.siteUrl}/auth/v1`,
      sub: session.user.id,
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    const stored = await server.db.query('select id from auth.sessions where id = $1', [claims.session_id]);
    expect(stored.rowCount).toBe(1);
  });

  it('are accepted by the other services (same secret, same verifier)', async () => {
    const { session } = await signedIn();
    const claims = await server.server.ctx.jwt.verify(session.access_token);
    expect(claims.role).toBe('authenticated');
  });
});

describe('stored credentials', () => {
  it('keeps only SHA-256 digests of refresh tokens and emailed tokens, and an argon2id hash', async () => {
    const { session, email } = await signedIn();
    const { rows } = await server.db.query<{ token: string }>(
      'select token from auth.refresh_tokens where session_id = $1',
      [decodeJwt(session.access_token).session_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token).not.toBe(session.refresh_token);
    const all = await server.db.query<{ n: string }>(
      'select count(*) as n from auth.refresh_tokens where token = $1',
      [session.refresh_token],
    );
    expect(all.rows[0]?.n).toBe('0');

    await clientFor(server).auth.resetPasswordForEmail(email);
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'recovery');
    const linkToken = new URL(mail.action_url as string).searchParams.get('token') as string;
    const tokens = await server.db.query<{ token_hash: string }>(
      'select token_hash from auth.one_time_tokens where relates_to = $1',
      [email],
    );
    expect(tokens.rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.rows[0]?.token_hash).not.toBe(linkToken);

    const user = await server.db.query<{ encrypted_password: string }>(
      'select encrypted_password from auth.users where lower(email) = $1',
      [email],
    );
    expect(user.rows[0]?.encrypted_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('refresh-token rotation', () => {
  it('tolerates a replay inside the reuse interval and revokes the session after it', async () => {
    const { session } = await signedIn();
    const first = session.refresh_token;
    const rotated = await clientFor(server).auth.refreshSession({ refresh_token: first });
    expect(rotated.error).toBeNull();
    const sibling = await clientFor(server).auth.refreshSession({ refresh_token: first });
    expect(sibling.error).toBeNull();
    expect(sibling.data.session?.refresh_token).not.toBe(rotated.data.session?.refresh_token);

    // Ten seconds later (REFRESH_TOKEN_REUSE_INTERVAL), the same token is a replay.
    await server.db.query(
      "update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where revoked and session_id = $1",
      [decodeJwt(session.access_token).session_id],
    );
    const replay = await clientFor(server).auth.refreshSession({ refresh_token: first });
    expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    expect(replay.error?.message).toBe('Invalid Refresh Token: Already Used');

    // The whole session is gone: its live tokens and its access token no longer work.
    for (const token of [rotated.data.session?.refresh_token, sibling.data.session?.refresh_token]) {
      const again = await clientFor(server).auth.refreshSession({ refresh_token: token as string });
      expect(again.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    }
    const user = await clientFor(server).auth.getUser(rotated.data.session?.access_token);
    expect(user.error).toMatchObject({ name: 'AuthSessionMissingError' });
    const audit = await server.db.query<{ action: string }>(
      "select payload->>'action' as action from auth.audit_log_entries where payload->>'action' = 'token_revoked'",
    );
    expect(audit.rowCount).toBeGreaterThanOrEqual(1);
  });

  it('answers refresh_token_not_found for an unknown token and validation_failed for none', async () => {
    const unknown = await clientFor(server).auth.refreshSession({ refresh_token: 'not-a-real-token' });
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const response = await fetch(`${server.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'refresh_token required',
    });
  });

  it("ends a banned user's sessions and refuses new ones", async () => {
    const { session, email } = await signedIn();
    const banned = await adminClient(server).auth.admin.updateUserById(session.user.id, {
      ban_duration: '24h',
    });
    expect(banned.data.user?.banned_until).toBeTruthy();
    const refreshed = await clientFor(server).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const again = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    expect(again.error).toMatchObject({ status: 400, code: 'user_banned', message: 'User is banned' });
    await adminClient(server).auth.admin.updateUserById(session.user.id, { ban_duration: 'none' });
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });
});

describe('one-time tokens', () => {
  it('expire after MAILER_OTP_EXP (1 h)', async () => {
    const email = uniqueEmail('expiring');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    await clientFor(server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'magiclink');
    await server.db.query(
      "update auth.one_time_tokens set created_at = created_at - interval '61 minutes' where relates_to = $1",
      [email],
    );
    const code = /code: (\d{6})/.exec(mail.text)?.[1] as string;
    const expired = await clientFor(server).auth.verifyOtp({ email, token: code, type: 'magiclink' });
    expect(expired.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('work once, even when two requests race for the same link', async () => {
    const email = uniqueEmail('race');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    await clientFor(server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email && m.type === 'magiclink');
    const tokenHash = new URL(mail.action_url as string).searchParams.get('token') as string;
    const attempts = await Promise.all(
      [1, 2, 3].map(() => clientFor(server).auth.verifyOtp({ token_hash: tokenHash, type: 'magiclink' })),
    );
    expect(attempts.filter((attempt) => attempt.error === null)).toHaveLength(1);
  });
});

describe('audit log', () => {
  it('records sign-ups, sign-ins, refreshes and sign-outs with the client address', async () => {
    const { supabase, session } = await signedIn();
    await supabase.auth.refreshSession();
    await supabase.auth.signOut();
    const { rows } = await server.db.query<{ action: string; ip_address: string; actor_id: string }>(
      `select payload->>'action' as action, ip_address, payload->>'actor_id' as actor_id
       from auth.audit_log_entries where payload->>'actor_id' = $1 order by created_at`,
      [session.user.id],
    );
    expect(rows.map((row) => row.action)).toEqual(['login', 'token_refreshed', 'logout']);
    expect(rows.every((row) => row.ip_address === '127.0.0.1' || row.ip_address.endsWith('127.0.0.1'))).toBe(
      true,
    );
  });
});
