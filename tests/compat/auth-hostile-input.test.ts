import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signToken, unsignedToken } from '#tests/support/tokens.ts';
import { signedInUser, uniqueEmail } from '#tests/support/users.ts';

/**
 * Hundreds of hostile requests (fuzzed bodies, odd types, SQL/HTML/script text, NUL and unpaired
 * surrogates, oversized fields, forged / alg:none / wrong-key / expired JWTs, other users' ids): every
 * one is answered with a 4xx (or a 2xx when it happens to be valid) in GoTrue's error format, never a
 * 5xx, and the service keeps working afterwards.
 */

const PASSWORD = 'correct horse battery';

let server: ServerProcess;
let userToken: string;
let otherUserId: string;
let otherFactorId: string;

beforeAll(async () => {
  server = await startServerProcess();
  userToken = (await signedInUser(server, { email: uniqueEmail('fuzz'), password: PASSWORD })).token;
  const victim = await signedInUser(server, { email: uniqueEmail('victim'), password: PASSWORD });
  otherUserId = victim.id;
  const { data: factor } = await victim.client.auth.mfa.enroll({ factorType: 'totp' });
  otherFactorId = (factor as { id: string }).id;
});
afterAll(() => server?.close());

type Who = 'anon' | 'user' | 'admin';
interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: () => string;
  who: Who;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: () => '/signup', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=password', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=refresh_token', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=pkce', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=id_token', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=web3', who: 'anon' },
  { method: 'POST', path: () => '/token?grant_type=%27%3B%20drop%20table%20auth.users%3B--', who: 'anon' },
  { method: 'POST', path: () => '/otp', who: 'anon' },
  { method: 'POST', path: () => '/verify', who: 'anon' },
  { method: 'POST', path: () => '/resend', who: 'anon' },
  { method: 'POST', path: () => '/recover', who: 'anon' },
  { method: 'POST', path: () => '/sso', who: 'anon' },
  { method: 'POST', path: () => '/logout?scope=everything', who: 'user' },
  { method: 'PUT', path: () => '/user', who: 'user' },
  { method: 'POST', path: () => '/factors', who: 'user' },
  { method: 'POST', path: () => `/factors/${otherFactorId}/challenge`, who: 'user' },
  { method: 'POST', path: () => `/factors/${otherFactorId}/verify`, who: 'user' },
  { method: 'DELETE', path: () => `/factors/${otherFactorId}`, who: 'user' },
  { method: 'DELETE', path: () => '/user/identities/not-a-uuid', who: 'user' },
  { method: 'POST', path: () => '/invite', who: 'admin' },
  { method: 'POST', path: () => '/admin/generate_link', who: 'admin' },
  { method: 'POST', path: () => '/admin/users', who: 'admin' },
  { method: 'PUT', path: () => `/admin/users/${otherUserId}`, who: 'admin' },
  { method: 'DELETE', path: () => '/admin/users/1%20or%201=1', who: 'admin' },
];

const FIELDS = [
  'email',
  'password',
  'phone',
  'data',
  'token',
  'token_hash',
  'type',
  'refresh_token',
  'auth_code',
  'code_verifier',
  'code_challenge',
  'code_challenge_method',
  'provider',
  'id_token',
  'nonce',
  'code',
  'challenge_id',
  'factor_type',
  'friendly_name',
  'issuer',
  'redirect_to',
  'user_metadata',
  'app_metadata',
  'ban_duration',
  'role',
  'new_email',
  'create_user',
  'email_confirm',
  'should_soft_delete',
  'password_hash',
  'id',
  '__proto__',
  'constructor',
];

const NASTY_STRINGS = [
  "' OR '1'='1",
  "'; drop table auth.users; --",
  "admin@example.com'--",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '\u0000',
  'a\u0000b@example.com',
  '\ud800',
  'x\udfffy',
  '%00%27',
  '../../../../etc/passwd',
  ['$', '{jndi:ldap://x}'].join(''),
  '{{7*7}}',
  'x'.repeat(10_000),
  '😀'.repeat(300),
  'user@example.com\r\nBcc: victim@example.com',
  '  padded@example.com  ',
  'UPPER@EXAMPLE.COM',
  `pkce_${'a'.repeat(56)}`,
  'a'.repeat(56),
  's256',
  'plain',
  'totp',
  'phone',
  'signup',
  'email_change',
  'none',
  '876000000h',
  'service_role',
  '-1',
  '1e309',
  'https://evil.example/',
  'http://2130706433/',
  'https://127.0.0.1@evil.example',
];

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('full_name', '__proto__', 'a\u0000', 'x'),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.string(), { maxLength: 4 }) },
);

const body: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

function headersFor(who: Who, version: boolean): Record<string, string> {
  const key = who === 'admin' ? server.serviceRoleKey : server.anonKey;
  const bearer = who === 'user' ? userToken : key;
  return {
    apikey: key,
    authorization: `Bearer ${bearer}`,
    'content-type': 'application/json',
    ...(version ? { 'x-supabase-api-version': '2024-01-01' } : {}),
  };
}

/**
 * Sends a request's head announcing a JSON body of `length` bytes, then only the body's first bytes,
 * and returns the answer the server gives before closing (raw HTTP/1.1 over a socket).
 */
function announceHugeBody(
  url: string,
  headers: Record<string, string>,
  length: number,
): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      const head = raw.indexOf('\r\n\r\n');
      const rest = head < 0 ? '' : raw.slice(head + 4);
      // The answer may be chunked: keep the JSON object inside it.
      const body = rest.slice(rest.indexOf('{'), rest.lastIndexOf('}') + 1);
      resolve({ status, body });
    });
    const lines = [
      `POST ${pathname}${search} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      `Content-Length: ${length}`,
      'Connection: close',
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n{"email":"huge@example.com","data":{"blob":"xxxxxxxx`);
  });
}

/** Every error answer: GoTrue's shape for the API version asked for, and the version echoed. */
async function expectGoTrueAnswer(response: Response, version: boolean, context: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${context} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status < 400 || response.status === 204) return;
  const json = JSON.parse(text) as Record<string, unknown>;
  if (context.includes('grant_type=id_token') && 'error_description' in json) {
    // The id_token grant's checks answer with GoTrue's OAuthError body in every version (token_oidc.go).
    expect(response.status).toBe(400);
    expect(Object.keys(json).sort()).toEqual(['error', 'error_description']);
    expect(typeof json.error_description).toBe('string');
    return;
  }
  if (version) {
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(typeof json.code).toBe('string');
    expect(typeof json.message).toBe('string');
  } else {
    expect(json.code).toBe(response.status);
    expect(typeof json.error_code).toBe('string');
    expect(typeof json.msg).toBe('string');
  }
  expect(response.headers.get('x-sb-error-code')).toBeTruthy();
}

let requests = 0;

describe('fuzzed bodies on every endpoint', () => {
  it('never produce a 5xx, and errors always have GoTrue’s format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        body,
        fc.boolean(),
        async (endpoint, payload, version) => {
          requests += 1;
          const response = await fetch(`${server.url}/auth/v1${endpoint.path()}`, {
            method: endpoint.method,
            headers: headersFor(endpoint.who, version),
            body: JSON.stringify(payload),
          });
          await expectGoTrueAnswer(
            response,
            version,
            `${endpoint.method} ${endpoint.path()} ${JSON.stringify(payload).slice(0, 200)}`,
          );
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);

  it('answers raw garbage, wrong content types and oversized bodies with 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom('{', '{"email":', '[]', 'null', '""', '\u0000'),
        ),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/xml',
        ),
        async (endpoint, raw, contentType) => {
          requests += 1;
          const response = await fetch(`${server.url}/auth/v1${endpoint.path()}`, {
            method: endpoint.method,
            headers: { ...headersFor(endpoint.who, false), 'content-type': contentType },
            body: raw,
          });
          await expectGoTrueAnswer(
            response,
            false,
            `${endpoint.method} ${endpoint.path()} ${contentType} ${JSON.stringify(raw).slice(0, 80)}`,
          );
        },
      ),
      { numRuns: 150 },
    );
    // A body over the limit is refused from its Content-Length alone: the server answers 413 and closes
    // the connection without reading it (fastify). A client still writing 2 MB then races that close
    // (fetch reports EPIPE instead of the answer), so announce the size and read the answer raw.
    const huge = await announceHugeBody(
      `${server.url}/auth/v1/signup`,
      headersFor('anon', false),
      2 * 1024 * 1024,
    );
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ code: 413, error_code: 'validation_failed' });
    const bigMetadata = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: headersFor('anon', false),
      body: JSON.stringify({
        email: uniqueEmail('meta'),
        password: PASSWORD,
        data: { blob: 'x'.repeat(5000) },
      }),
    });
    expect(bigMetadata.status).toBe(400);
    requests += 2;
  }, 300_000);
});

describe('forged and broken tokens', () => {
  async function tokens(): Promise<string[]> {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: otherUserId, role: 'authenticated', aud: 'authenticated', exp: now + 600 };
    // As a forger would make them: only `alg` in the header, the claims exactly as written.
    const sign = (claimed: Record<string, unknown>, secret = server.jwtSecret) =>
      signToken(secret, claimed, { noTimes: true, header: { alg: 'HS256' } });
    return [
      unsignedToken(claims),
      unsignedToken({ ...claims, role: 'service_role' }, { alg: 'none' }),
      await sign(claims, 'w'.repeat(40)),
      await sign({ ...claims, exp: now - 10 }),
      await sign({ ...claims, sub: "1' or '1'='1" }),
      await sign({ ...claims, sub: 42 }),
      await sign({ ...claims, session_id: 'nope' }),
      await sign({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
      await sign({ ...claims, role: 'postgres' }),
      await sign({ ...claims, session_id: '00000000-0000-4000-8000-000000000001' }),
      `${userToken.slice(0, -4)}AAAA`,
      'x'.repeat(12_000),
      'not.a.jwt',
      '',
    ];
  }

  it('are refused with 401/403 on every signed-in route and never reach another user', async () => {
    const routes: [string, string][] = [
      ['GET', '/user'],
      ['PUT', '/user'],
      ['POST', '/logout'],
      ['GET', '/reauthenticate'],
      ['POST', '/factors'],
      ['DELETE', `/factors/${otherFactorId}`],
      ['GET', '/admin/users'],
      ['DELETE', `/admin/users/${otherUserId}`],
    ];
    for (const token of await tokens()) {
      for (const [method, path] of routes) {
        requests += 1;
        const response = await fetch(`${server.url}/auth/v1${path}`, {
          method,
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
          },
          body: method === 'GET' ? undefined : '{"data":{"owned":true},"factor_type":"totp"}',
        });
        expect([401, 403, 404], `${method} ${path} with ${token.slice(0, 40)}`).toContain(response.status);
        await expectGoTrueAnswer(response, false, path);
      }
    }
    const { data } = await adminClient(server).auth.admin.getUserById(otherUserId);
    expect(data.user?.user_metadata.owned).toBeUndefined();
    expect(data.user?.factors).toHaveLength(1);
  });

  it('refuses forged and unsigned API keys on every API route; no key at all is anon (decision 108)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = unsignedToken({ role: 'service_role', exp: now + 600 }, { alg: 'none' });
    requests += 1;
    expect((await fetch(`${server.url}/auth/v1/settings`)).status).toBe(200);
    for (const apikey of ['', 'garbage', unsigned, userToken]) {
      requests += 1;
      const response = await fetch(`${server.url}/auth/v1/settings`, {
        headers: { apikey },
      });
      if (apikey === userToken) {
        // A user's token is a valid JWT of the project but not an API key.
        expect(response.status).toBe(401);
      } else {
        expect(response.status).toBe(401);
      }
      expect(await response.json()).toMatchObject({ error_code: 'no_authorization' });
    }
  });

  it('keeps working after all of it', async () => {
    expect(requests).toBeGreaterThanOrEqual(500);
    const health = await fetch(`${server.url}/auth/v1/health`, { headers: { apikey: server.anonKey } });
    expect(health.status).toBe(200);
    const email = uniqueEmail('after');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect((await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });
});
