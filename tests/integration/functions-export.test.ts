// @databases: both — the export document is built in SQL from every table.
/**
 * POST /functions/v1/gdpr-data-export against the real server and database: who may call it, what the
 * document holds (a row from every table that holds user data, the files), what it never holds
 * (credentials, other users' data), and the per-user limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '#tests/support/tokens.ts';
import { type Member, seedMember, userTables } from './functions-support.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

let t: StorageTestServer;
let admin: Member;
let other: Member;

const exportUrl = () => `${t.url}/functions/v1/gdpr-data-export`;

/** As the web app calls it (product §server-functions): bearer token and JSON content type, nothing else. */
function webExport(token: string, init: RequestInit = {}) {
  return fetch(exportUrl(), {
    method: 'POST',
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
  });
}

beforeAll(async () => {
  t = await startStorageServer('file', { GDPR_EXPORT_LIMIT_PER_HOUR: '1000' });
  admin = await seedMember(t, { admin: true });
  other = await seedMember(t);
});
afterAll(() => t?.close());

describe('the export document', () => {
  let response: Response;
  let text: string;
  let doc: Record<string, unknown>;

  beforeAll(async () => {
    response = await webExport(admin.token);
    text = await response.text();
    doc = JSON.parse(text);
  });

  it('is a pretty-printed JSON download named user_data_export_{userId}.json', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="user_data_export_${admin.id}.json"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(doc.format_version).toBe(1);
    expect(Date.now() - Date.parse(doc.exported_at as string)).toBeLessThan(60_000);
    expect(doc.user_id).toBe(admin.id);
  });

  it('holds the account with identities, factors and sessions, without credentials', () => {
    const account = doc.account as Record<string, unknown>;
    expect(account).toMatchObject({
      id: admin.id,
      email: admin.email,
      user_metadata: { full_name: expect.any(String) },
    });
    expect(account.phone).toMatch(/^\+1555/);
    expect(account).toHaveProperty('created_at');
    expect(account).toHaveProperty('last_sign_in_at');
    expect(account).toHaveProperty('confirmed_at');
    expect(account).toHaveProperty('app_metadata');
    expect(account.identities).toEqual([expect.objectContaining({ provider: 'email', email: admin.email })]);
    expect(account.mfa_factors).toEqual([
      expect.objectContaining({ factor_type: 'totp', friendly_name: 'phone app', status: 'verified' }),
    ]);
    expect(account.sessions).toEqual([
      expect.objectContaining({ user_agent: 'test-agent', ip: '203.0.113.9' }),
    ]);
    for (const secret of admin.secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/encrypted_password|"secret"|refresh_token|token_hash|provider_access_token/);
  });

  it('holds a row from every table that references the account', async () => {
    const sections: Record<string, string> = {
      admin_posts: 'admin_posts',
      bookings: 'bookings',
      brand_claims: 'brand_claims',
      notifications: 'notifications',
      privacy_settings: 'privacy_settings',
      'private.rate_limit_attempts': 'rate_limit_records.attempts',
      'private.rate_limit_penalties': 'rate_limit_records.penalties',
      'private.write_quota_usage': 'rate_limit_records.write_quotas',
      moderation_items: 'moderation_actions',
      'private.votes_signals': 'vote_signals',
      'private.inactivity_warnings': 'inactivity_warnings',
      'private.scammer_watch_alerts': 'scammer_watch_alerts',
      product_comment_likes: 'comment_likes',
      product_comment_reports: 'comment_reports',
      product_comments: 'comments',
      product_votes: 'votes',
      profiles: 'profile',
      saved_articles: 'saved_articles',
      scammer_report_replies: 'scammer_report_replies',
      scammer_reports: 'scammer_reports',
      scammer_subscriptions: 'subscriptions',
      scammer_watches: 'scammer_watches',
      security_events: 'security_events',
      user_roles: 'roles',
    };
    // Copies of the account's own fields, kept for a search and exported with the account: a
    // suspension's end (private.member_bans, decision 281) is the account's banned_until.
    const copies: Record<string, string> = { 'private.member_bans': 'banned_until' };
    const tables = (await userTables(t.server.db)).map((row) => row.table);
    // A new table with user data must be added to the export (server/product/gdpr/gdpr-export.ts).
    expect(tables.sort()).toEqual([...Object.keys(sections), ...Object.keys(copies)].sort());
    for (const [table, field] of Object.entries(copies))
      expect(doc.account as Record<string, unknown>, table).toHaveProperty(field);
    for (const [table, path] of Object.entries(sections)) {
      const value = path
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
      const rows = Array.isArray(value) ? value : [value];
      expect(rows.length, `${table} → ${path}`).toBeGreaterThan(0);
      expect(rows[0], `${table} → ${path}`).toBeTruthy();
    }
    expect(doc.profile).toMatchObject({ user_id: admin.id, bio: `Bio of ${admin.id.slice(0, 8)}` });
    expect(doc.privacy_settings).toMatchObject({ user_id: admin.id, show_email: true });
    expect(doc.roles).toEqual([expect.objectContaining({ user_id: admin.id, role: 'admin' })]);
    expect(doc.comments).toEqual([
      expect.objectContaining({ content: `Comment by ${admin.id.slice(0, 8)}` }),
    ]);
    expect(doc.scammer_reports).toEqual([expect.objectContaining({ reporter_user_id: admin.id })]);
    expect(doc.admin_posts).toEqual([expect.objectContaining({ author_id: admin.id })]);
    // Security events about them: their own and the anonymous one naming their address.
    expect((doc.security_events as unknown[]).length).toBe(2);
    expect(doc.account_activity).toEqual([
      expect.objectContaining({ action: 'login', ip_address: '203.0.113.9' }),
    ]);
  });

  it('lists their files with size, type and public URL', () => {
    const files = doc.files as Record<string, unknown>[];
    expect(files.map((file) => `${file.bucket}/${file.name}`)).toEqual([
      `community-review-media/admin-posts/${admin.id.slice(0, 8)}.png`,
      `user-uploads/${admin.id}/avatar-1.png`,
      `user-uploads/${admin.id}/avatar-2.png`,
    ]);
    expect(files[1]).toMatchObject({ size: expect.any(Number), content_type: 'image/png' });
    expect(files[1]?.public_url).toBe(
      `${t.url}/storage/v1/object/public/user-uploads/${admin.id}/avatar-1.png`,
    );
  });

  it('holds nothing of another user, although an admin may read everyone’s rows', () => {
    expect(text).not.toContain(other.id);
    expect(text).not.toContain(other.email);
    expect(text).not.toContain(other.id.slice(0, 8));
  });

  it('is the same through supabase-js functions.invoke (which also sends the apikey)', async () => {
    const { data, error } = await admin.client.functions.invoke('gdpr-data-export');
    expect(error).toBeNull();
    expect(data.user_id).toBe(admin.id);
    expect(Object.keys(data)).toEqual(Object.keys(doc));
  });

  it('answers a member without an admin role with their own rows only', async () => {
    const res = await webExport(other.token, { body: JSON.stringify({ user_id: admin.id }) });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(other.email);
    expect(body).not.toContain(admin.id);
    expect(JSON.parse(body).admin_posts).toEqual([]);
  });
});

describe('who may export', () => {
  const sign = (claims: Record<string, unknown>, secret: string) =>
    signToken(secret, claims, { header: { alg: 'HS256' } });

  it.each([
    ['no credentials', async () => ({})],
    ['the anon key as bearer', async () => ({ Authorization: `Bearer ${t.server.anonKey}` })],
    ['the service-role key as bearer', async () => ({ Authorization: `Bearer ${t.server.serviceRoleKey}` })],
    [
      'the service-role key with its apikey',
      async () => ({ Authorization: `Bearer ${t.server.serviceRoleKey}`, apikey: t.server.serviceRoleKey }),
    ],
    ['only an apikey', async () => ({ apikey: t.server.anonKey })],
    [
      'an expired token',
      async () => ({
        Authorization: `Bearer ${await signToken(t.server.jwtSecret, { sub: admin.id, role: 'authenticated' }, { expiresIn: -60 })}`,
      }),
    ],
    [
      'a token signed with another secret',
      async () => ({
        Authorization: `Bearer ${await sign({ sub: admin.id, role: 'authenticated' }, 'x'.repeat(40))}`,
      }),
    ],
    [
      'an unsigned token (alg none)',
      async () => {
        const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        return {
          Authorization: `Bearer ${part({ alg: 'none' })}.${part({ sub: admin.id, role: 'authenticated' })}.`,
        };
      },
    ],
    [
      'a valid token with a wrong apikey',
      async () => ({ Authorization: `Bearer ${admin.token}`, apikey: 'nope' }),
    ],
    [
      'a token of an account that does not exist',
      async () => ({
        Authorization: `Bearer ${await signToken(t.server.jwtSecret, { sub: '00000000-0000-4000-8000-000000000001', role: 'authenticated' })}`,
      }),
    ],
    [
      'a token whose session has ended',
      async () => ({
        Authorization: `Bearer ${await signToken(t.server.jwtSecret, { sub: admin.id, role: 'authenticated', session_id: '00000000-0000-4000-8000-000000000002' })}`,
      }),
    ],
    [
      'a token with a role the database does not have',
      async () => ({
        Authorization: `Bearer ${await signToken(t.server.jwtSecret, { sub: admin.id, role: 'postgres' })}`,
      }),
    ],
    [
      'a user token without a user id',
      async () => ({
        Authorization: `Bearer ${await signToken(t.server.jwtSecret, { role: 'authenticated' })}`,
      }),
    ],
  ])('refuses %s with 401 {error, message}', async (_name, headers) => {
    const response = await fetch(exportUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await headers()) },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body.message).toEqual(expect.any(String));
  });

  it('accepts a token whose session exists', async () => {
    const token = await signToken(t.server.jwtSecret, {
      sub: admin.id,
      role: 'authenticated',
      session_id: admin.sessionId,
    });
    expect((await webExport(token)).status).toBe(200);
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])('answers %s with 405 and Allow', async (method) => {
    const response = await fetch(exportUrl(), {
      method,
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(((await response.json()) as Record<string, unknown>).error).toBe('method_not_allowed');
  });

  it('answers the CORS preflight of the web app', async () => {
    const response = await fetch(exportUrl(), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, apikey, x-client-info',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it.each([
    ['a JSON array', '[1]', 'application/json', 400],
    ['a JSON string', '"everything"', 'application/json', 400],
    ['broken JSON', '{"user_id":', 'application/json', 400],
    ['a prototype-polluting body', '{"__proto__": {"admin": true}}', 'application/json', 400],
    ['a form body', 'user_id=x', 'application/x-www-form-urlencoded', 415],
    ['a huge body', JSON.stringify({ pad: 'x'.repeat(200_000) }), 'application/json', 413],
  ])('refuses %s', async (_name, body, type, status) => {
    const response = await fetch(exportUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': type },
      body,
    });
    expect(response.status).toBe(status);
    expect(Object.keys((await response.json()) as object).sort()).toEqual(['error', 'message']);
  });
});

describe('the export limit', () => {
  let limited: StorageTestServer;
  beforeAll(async () => {
    limited = await startStorageServer('file', { GDPR_EXPORT_LIMIT_PER_HOUR: '2' });
  });
  afterAll(() => limited?.close());

  it('allows GDPR_EXPORT_LIMIT_PER_HOUR exports per user and hour, then 429 with Retry-After', async () => {
    const member = await seedMember(limited);
    const second = await seedMember(limited);
    const call = (token: string) =>
      fetch(`${limited.url}/functions/v1/gdpr-data-export`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
    expect((await call(member.token)).status).toBe(200);
    expect((await call(member.token)).status).toBe(200);
    const refused = await call(member.token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.stringContaining('rate limit'),
    });
    // Another user's budget is their own.
    expect((await call(second.token)).status).toBe(200);
  });
});
