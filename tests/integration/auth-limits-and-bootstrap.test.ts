import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '#server/auth/rate-limit.ts';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import {
  type AuthTestServer,
  adminClient,
  clientFor,
  RELAXED_LIMITS,
  startAuthServer,
  uniqueEmail,
  waitForMail,
} from '#tests/support/auth.ts';
import { testDatabase } from '#tests/support/test-server.ts';

const PASSWORD = 'correct horse battery';

describe('admin bootstrap (spec §4)', () => {
  const SUPPORT = 'support@highgrade.test';
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({ SUPPORT_EMAIL: SUPPORT });
    // public.user_roles comes from supabase/migrations once the branches are merged; until then this
    // test creates it exactly as that migration does.
    await server.db.exec(`
      create table if not exists public.user_roles (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references auth.users (id) on delete cascade,
        role text not null check (role in ('admin')),
        created_at timestamptz not null default now(),
        unique (user_id, role)
      );
    `);
  });
  afterAll(() => server?.close());

  const rolesOf = async (userId: string) =>
    (
      await server.db.query<{ role: string }>('select role from public.user_roles where user_id = $1', [
        userId,
      ])
    ).rows;

  it('gives the SUPPORT_EMAIL account the admin role when it signs in, once', async () => {
    const { data } = await adminClient(server).auth.admin.createUser({
      email: 'Support@HighGrade.test',
      password: PASSWORD,
      email_confirm: true,
    });
    const userId = data.user?.id as string;
    expect(await rolesOf(userId)).toEqual([]);
    expect(
      (await clientFor(server).auth.signInWithPassword({ email: SUPPORT, password: PASSWORD })).error,
    ).toBeNull();
    expect(await rolesOf(userId)).toEqual([{ role: 'admin' }]);
    // A second sign-in (and any other grant) conflicts and is ignored.
    const again = await clientFor(server).auth.signInWithPassword({ email: SUPPORT, password: PASSWORD });
    expect(again.error).toBeNull();
    await clientFor(server).auth.refreshSession({
      refresh_token: again.data.session?.refresh_token as string,
    });
    expect(await rolesOf(userId)).toEqual([{ role: 'admin' }]);
  });

  it('gives nobody else the role, whatever they sign up with', async () => {
    const email = uniqueEmail('member');
    const { data } = await adminClient(server).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { role: 'admin', email: SUPPORT },
      app_metadata: { role: 'admin' },
    });
    await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    expect(await rolesOf(data.user?.id as string)).toEqual([]);
    const total = await server.db.query<{ n: string }>('select count(*) as n from public.user_roles');
    expect(total.rows[0]?.n).toBe('1');
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
    for (const email of [known, unknown]) {
      expect((await clientFor(server).auth.resetPasswordForEmail(email)).error).toBeNull();
      const second = await clientFor(server).auth.resetPasswordForEmail(email);
      expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      expect(second.error?.message).toMatch(
        /^For security purposes, you can only request this after \d+ seconds\.$/,
      );
    }
    await waitForMail(server.dataDir, (m) => m.to === known);
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
