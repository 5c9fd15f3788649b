// @databases: both — the data API's generated SQL and timeouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchemaCache } from '#server/rest/schema-cache.ts';
import {
  ALICE,
  installRestFixture,
  type RestReply,
  restHttp,
  userToken,
} from '#tests/support/rest-fixture.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signToken } from '#tests/support/tokens.ts';

/** Who may call, how requests are told apart, preferences, and the schema cache's life. */

let server: TestServer;
let http: ReturnType<typeof restHttp>;
beforeAll(async () => {
  server = await startTestServer();
  await installRestFixture(server);
  http = restHttp(server);
});
afterAll(() => server?.close());

const expectError = (reply: RestReply, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toMatchObject({ code });
};
const raw = (path: string, headers: Record<string, string>) =>
  fetch(`${server.url}/rest/v1${path}`, { headers });

describe('keys and tokens', () => {
  it('a request with neither API key nor token runs as anon (decision 108)', async () => {
    const response = await raw('/films?select=id&id=eq.4', {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ id: 4 }]);
    const secrets = await raw('/secrets', {});
    expect(secrets.status).toBe(401);
    expect(await secrets.json()).toMatchObject({ code: '42501' });
  });

  it('an unknown API key is 401', async () => {
    const forged = await signToken(
      'x'.repeat(40),
      { role: 'anon' },
      { noTimes: true, header: { alg: 'HS256' } },
    );
    const response = await raw('/films', { apikey: forged });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'PGRST301', message: 'Invalid API key' });
  });

  it('an expired token is PGRST303 with WWW-Authenticate', async () => {
    const expired = await signToken(
      server.jwtSecret,
      { role: 'authenticated', sub: ALICE },
      { age: 7200, expiresIn: -3600, header: { alg: 'HS256' } },
    );
    const reply = await restHttp(server, expired)('GET', '/films');
    expectError(reply, 401, 'PGRST303');
    expect(reply.body).toMatchObject({ message: 'JWT expired' });
    expect(reply.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('a token with a bad signature or alg:none is PGRST301', async () => {
    const good = await userToken(server, ALICE);
    const [header, payload] = good.split('.');
    expectError(await restHttp(server, `${header}.${payload}.AAAA`)('GET', '/films'), 401, 'PGRST301');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expectError(await restHttp(server, none)('GET', '/films'), 401, 'PGRST301');
  });

  it('a token for a role that does not exist is 401', async () => {
    const token = await signToken(
      server.jwtSecret,
      { role: 'postgres' },
      { noTimes: true, header: { alg: 'HS256' } },
    );
    const reply = await restHttp(server, token)('GET', '/films');
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ message: 'role "postgres" does not exist' });
  });

  it('runs as the token role with its claims; the client address cannot be forged', async () => {
    const reply = await restHttp(server, await userToken(server, ALICE))('GET', '/rpc/whoami', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(reply.body).toEqual({ role: 'authenticated', sub: ALICE, ip: '127.0.0.1', method: 'GET' });
  });

  it('the service role key bypasses row-level security', async () => {
    const service = restHttp(server, server.serviceRoleKey);
    expect((await service('GET', '/notes?select=id&order=id')).body).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
    expect((await http('GET', '/notes?select=id')).body).toEqual([{ id: 1 }]);
  });
});

describe('routes and methods', () => {
  it('answers what it does not serve in PostgREST shape', async () => {
    expectError(await http('PUT', '/films?id=eq.1', { body: { id: 1 } }), 405, 'PGRST117');
    expectError(await http('GET', '/films/1'), 404, 'PGRST125');
    expectError(await http('GET', '/'), 404, 'PGRST126');
  });

  it('answers CORS preflights without credentials', async () => {
    const response = await fetch(`${server.url}/rest/v1/films`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'apikey,authorization,prefer,content-profile',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('exposes Content-Range to browsers', async () => {
    const response = await raw('/films?select=id&limit=1', {
      apikey: server.anonKey,
      origin: 'https://app.example',
    });
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });
});

describe('preferences', () => {
  it('handling=strict rejects unknown preferences; lenient ignores them', async () => {
    const strict = await http('GET', '/films?select=id&limit=1', {
      headers: { prefer: 'handling=strict, foo, bar=baz' },
    });
    expectError(strict, 400, 'PGRST122');
    expect(strict.body).toMatchObject({ details: 'Invalid preferences: foo, bar=baz' });
    expect((await http('GET', '/films?select=id&limit=1', { headers: { prefer: 'foo, bar' } })).status).toBe(
      200,
    );
  });

  it('timezone changes how times are shown; an unknown zone is ignored or refused when strict', async () => {
    const utc = await http('GET', '/showings?select=starts_at&id=eq.1');
    expect(utc.body).toEqual([{ starts_at: '2024-05-01T12:00:00+00:00' }]);
    const ny = await http('GET', '/showings?select=starts_at&id=eq.1', {
      headers: { prefer: 'timezone=America/New_York' },
    });
    expect(ny.body).toEqual([{ starts_at: '2024-05-01T08:00:00-04:00' }]);
    expect(ny.headers.get('preference-applied')).toBe('timezone=America/New_York');
    const unknown = await http('GET', '/showings?select=starts_at&id=eq.1', {
      headers: { prefer: 'timezone=Mars/Olympus' },
    });
    expect(unknown.body).toEqual(utc.body);
    expect(unknown.headers.get('preference-applied')).toBeNull();
    expectError(
      await http('GET', '/showings', { headers: { prefer: 'handling=strict, timezone=Mars/Olympus' } }),
      400,
      'PGRST122',
    );
  });
});

describe('schema cache', () => {
  it('reloads on NOTIFY pgrst', async () => {
    await server.db.exec(
      `create table public.late_arrival (id int primary key); insert into public.late_arrival values (7);`,
    );
    expectError(await http('GET', '/late_arrival'), 404, 'PGRST205');
    await server.db.exec(`notify pgrst, 'reload schema'`);
    let reply = await http('GET', '/late_arrival');
    for (let i = 0; i < 100 && reply.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reply = await http('GET', '/late_arrival');
    }
    expect(reply.body).toEqual([{ id: 7 }]);
  });

  it('reloads on demand', async () => {
    await server.db.exec(`create function public.late_function() returns int language sql as $$ select 8 $$`);
    expectError(await http('POST', '/rpc/late_function'), 404, 'PGRST202');
    await reloadSchemaCache(server.db);
    expect((await http('POST', '/rpc/late_function')).text).toBe('8');
  });
});

describe('limits', () => {
  it('nesting, width and embeds beyond sane limits are refused before they reach the database', async () => {
    const chain = (depth: number) =>
      `${Array.from({ length: depth }, (_, i) => (i % 2 === 0 ? 'directors(' : 'films(')).join('')}id${')'.repeat(depth)}`;
    const deepEnough = await http('GET', `/films?select=id,${chain(30)}&id=eq.1`);
    expect(deepEnough.status).toBe(200);
    expectError(await http('GET', `/films?select=id,${chain(40)}`), 400, 'PGRST100');
    const logic = (depth: number) => `${'or('.repeat(depth)}id.eq.1${')'.repeat(depth)}`;
    expect((await http('GET', `/films?select=id&and=(${logic(30)})`)).body).toEqual([{ id: 1 }]);
    expectError(await http('GET', `/films?select=id&and=(${logic(2000)})`), 400, 'PGRST100');
    const wide = Array.from({ length: 1800 }, (_, i) => `a${i}:id`).join(',');
    expectError(await http('GET', `/films?select=${wide}`), 400, 'PGRST100');
    const many = (n: number) => Array.from({ length: n }, (_, i) => `d${i}:directors(id)`).join(',');
    expect((await http('GET', `/films?select=${many(50)}&id=eq.1`)).status).toBe(200);
    expectError(await http('GET', `/films?select=${many(300)}`), 400, 'PGRST100');
    const deepJson = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expectError(await http('POST', '/items', { body: deepJson }), 400, 'PGRST102');
  });
});

describe('statement timeout', () => {
  // A server of its own: a timeout short enough to test would also cancel honest but slow plans
  // (the 50-embed read above) on a loaded machine.
  let timed: TestServer;
  beforeAll(async () => {
    timed = await startTestServer({ ANON_STATEMENT_TIMEOUT_MS: '1000' });
    await installRestFixture(timed);
  });
  afterAll(() => timed?.close());

  it('a statement running longer than its role allows is cancelled, on both databases', async () => {
    const reply = await restHttp(timed)('POST', '/rpc/sleepy', { body: { seconds: 30 } });
    expectError(reply, 500, '57014');
    expect(reply.body).toMatchObject({ message: 'canceling statement due to statement timeout' });
  });
});
