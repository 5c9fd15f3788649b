// @databases: both — anonymous users write nothing: RLS on every writable table.
/**
 * Anonymous sign-ins on the server side (issue 24, decision 148): the order of GoTrue's checks (the
 * switch, the per-address hourly limit, DISABLE_SIGNUP), what is stored, and the product's rule that
 * anonymous users write nothing — on every table the `authenticated` role may write, also through a
 * SECURITY DEFINER procedure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '#tests/support/clients.ts';
import { type AuthTestServer, startAuthServer } from '#tests/support/test-server.ts';

function anonymousSignIn(server: AuthTestServer, from: string): Promise<Response> {
  return fetch(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: server.anonKey, 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ data: {}, gotrue_meta_security: {} }),
  });
}

describe('anonymous sign-ins: the switch, the hourly limit per address, DISABLE_SIGNUP', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({
      ENABLE_ANONYMOUS_USERS: 'true',
      RATE_LIMIT_ANONYMOUS_USERS: '2',
      TRUST_PROXY: '127.0.0.1',
    });
  });
  afterAll(() => server?.close());

  it('stores an anonymous user without email, password or identity, with its anonymous session', async () => {
    const response = await anonymousSignIn(server, '198.51.100.1');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: string } };
    const { rows } = await server.db.query<Record<string, unknown>>(
      `select u.is_anonymous, u.email, u.encrypted_password, u.role, u.raw_app_meta_data,
              (select count(*)::int from auth.identities i where i.user_id = u.id) as identities,
              (select count(*)::int from public.profiles p where p.user_id = u.id) as profiles,
              (select array_agg(c.authentication_method) from auth.mfa_amr_claims c
                 join auth.sessions s on s.id = c.session_id where s.user_id = u.id) as methods
       from auth.users u where u.id = $1`,
      [body.user.id],
    );
    expect(rows[0]).toEqual({
      is_anonymous: true,
      email: null,
      encrypted_password: '',
      role: 'authenticated',
      raw_app_meta_data: {},
      identities: 0,
      profiles: 0,
      methods: ['anonymous'],
    });
  });

  it('allows RATE_LIMIT_ANONYMOUS_USERS an hour per client address, then 429 over_request_rate_limit', async () => {
    expect((await anonymousSignIn(server, '198.51.100.2')).status).toBe(200);
    expect((await anonymousSignIn(server, '198.51.100.2')).status).toBe(200);
    const blocked = await anonymousSignIn(server, '198.51.100.2');
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    // Retry-After tells the rest of the hour.
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(300);
    // Another address has its own count.
    expect((await anonymousSignIn(server, '198.51.100.3')).status).toBe(200);
  });

  it('refuses with signup_disabled when sign-ups are off, the switch first', async () => {
    const closed = await startAuthServer({ ENABLE_ANONYMOUS_USERS: 'true', DISABLE_SIGNUP: 'true' });
    try {
      const response = await anonymousSignIn(closed, '198.51.100.4');
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ error_code: 'signup_disabled' });
    } finally {
      await closed.close();
    }
    const off = await startAuthServer({ DISABLE_SIGNUP: 'true' });
    try {
      const response = await anonymousSignIn(off, '198.51.100.5');
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        code: 422,
        error_code: 'anonymous_provider_disabled',
        msg: 'Anonymous sign-ins are disabled',
      });
    } finally {
      await off.close();
    }
  });

  it('puts the refusal on every table the authenticated role may write (a new one adds its line)', async () => {
    const { rows } = await server.db.query<{ table: string; guarded: boolean }>(
      `select c.relname as table,
              exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'refuse_anonymous_writes'
                        and not t.tgisinternal) as guarded
       from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
         and (has_table_privilege('authenticated', c.oid, 'INSERT') or has_table_privilege('authenticated', c.oid, 'UPDATE')
              or has_table_privilege('authenticated', c.oid, 'DELETE')
              or has_any_column_privilege('authenticated', c.oid, 'INSERT')
              or has_any_column_privilege('authenticated', c.oid, 'UPDATE'))
       order by 1`,
    );
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((row) => !row.guarded).map((row) => row.table)).toEqual([]);
  });

  it('refuses writes through a SECURITY DEFINER procedure too, while visitors still log events', async () => {
    const guest = clientFor(server, { headers: { 'x-forwarded-for': '198.51.100.6' } });
    expect((await guest.auth.signInAnonymously()).error).toBeNull();
    const refused = await guest.rpc('log_security_event', { type: 'test', action: 'anonymous' });
    expect(refused.error).toMatchObject({
      code: '42501',
      message: 'Anonymous users cannot change data here',
    });
    const visitor = clientFor(server, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    const logged = await visitor.rpc('log_security_event', { type: 'test', action: 'visitor' });
    expect(logged.error).toBeNull();
    const { rows } = await server.db.query<{ action: string }>(
      "select action from public.security_events where type = 'test' order by action",
    );
    expect(rows.map((row) => row.action)).toEqual(['visitor']);
  });
});
