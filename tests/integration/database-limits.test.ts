// @databases: both — statement timeouts, the pool and admission differ by driver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchemaCache } from '#server/rest/schema-cache.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { userToken as mintUserToken } from '#tests/support/tokens.ts';

/**
 * One request never stalls everyone (issue 13, decision 092): statements end at their role's limit
 * with PostgREST's error, the rest of the server answers meanwhile, a full pool answers 503 with
 * Retry-After at once, one client holds no more than its share, and ending a statement on the
 * embedded database (by reopening it) loses no acknowledged write. Nothing here asserts a duration:
 * "at once" is shown by answers arriving before the slow statement has finished.
 */

const FIXTURE_SQL = `
create or replace function public.spin(seconds float) returns int
language plpgsql volatile as $$
declare
  stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
begin
  while clock_timestamp() < stop loop
  end loop;
  return 1;
end
$$;
grant execute on function public.spin(float) to anon, authenticated, service_role;
create table if not exists public.acks (n int primary key);
grant select, insert on public.acks to anon, authenticated, service_role;
`;

const SETTINGS = {
  ANON_STATEMENT_TIMEOUT_MS: '2500',
  AUTHENTICATED_STATEMENT_TIMEOUT_MS: '6000',
  STATEMENT_TIMEOUT_MS: '1500',
  DB_POOL_MAX: '3',
  DB_POOL_PER_CLIENT: '1',
  // Other clients are told apart by X-Forwarded-For; the server's own polling stays out of the way.
  TRUST_PROXY: 'true',
  REALTIME_POLL_INTERVAL_MS: '60000',
};

async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ ...SETTINGS, ...env });
  await server.db.exec(FIXTURE_SQL);
  // The accounts the tokens below name exist: the data API refuses a token whose account is gone
  // (decision 097).
  await server.db.query(
    `insert into auth.users (id, email, aud, role)
     select id, right(id::text, 3) || '@example.com', 'authenticated', 'authenticated'
       from unnest($1::uuid[]) as id on conflict (id) do nothing`,
    [[1, 2, 100, 101, 102].map((n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`)],
  );
  await reloadSchemaCache(server.db);
  return server;
}

function userToken(server: TestServer, sub: string): Promise<string> {
  return mintUserToken(server.jwtSecret, sub);
}

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

async function call(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string; from?: string; body?: unknown; apikey?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { apikey: options.apikey ?? server.anonKey };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.from) headers['x-forwarded-for'] = options.from;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (the web app's page)
  }
  return { status: response.status, headers: response.headers, body };
}

const spin = (server: TestServer, seconds: number, options: { token?: string; from?: string } = {}) =>
  call(server, 'POST', '/rest/v1/rpc/spin', { ...options, body: { seconds } });

/** Resolves once `count` connections are taken (by the statements a test just sent). */
async function connectionsTaken(server: TestServer, count: number): Promise<void> {
  while (server.db.activity.inUse < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** /health, asked again until it answers busy or `slow` has been answered. */
async function healthWhileBusy(server: TestServer, slow: { done: () => boolean }): Promise<Reply> {
  for (;;) {
    const health = await call(server, 'GET', '/health');
    if ((health.body as { busy?: boolean }).busy || slow.done()) return health;
  }
}

/** Tracks whether a request has been answered yet. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; done: () => boolean } {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  return { promise: watched, done: () => settled };
}

const TIMEOUT_BODY = {
  code: '57014',
  message: 'canceling statement due to statement timeout',
  details: null,
  hint: null,
};

describe(`statement limits per role (${testDatabase()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    // These tests are about statement limits, not the gate: after a statement is ended, the embedded
    // database reopens (seconds on a busy machine), and the next request waits for it rather than
    // being answered 503 after the default second.
    server = await startServer({ DB_ACQUIRE_TIMEOUT_MS: '30000' });
  });
  afterAll(() => server?.close());

  it('ends an anonymous statement at the anon limit with PostgREST timeout error', async () => {
    const reply = await spin(server, 30);
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual(TIMEOUT_BODY);
  });

  it('lets a signed-in user run the same statement, up to the authenticated limit', async () => {
    const token = await userToken(server, '00000000-0000-4000-8000-000000000001');
    expect(await spin(server, 3, { token })).toMatchObject({ status: 200, body: 1 });
    expect(await spin(server, 30, { token })).toMatchObject({ status: 500, body: TIMEOUT_BODY });
  });

  it('ends a service_role statement at STATEMENT_TIMEOUT_MS', async () => {
    const reply = await spin(server, 30, { token: server.serviceRoleKey });
    expect(reply).toMatchObject({ status: 500, body: TIMEOUT_BODY });
  });

  it('answers the next request normally after a statement was ended', async () => {
    await spin(server, 30);
    expect(await call(server, 'GET', '/rest/v1/acks?select=n')).toMatchObject({ status: 200, body: [] });
  });
});

describe(`the rest of the server while a statement runs (${testDatabase()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('answers /health, static files, auth and other API requests before the statement ends', async () => {
    const token = await userToken(server, '00000000-0000-4000-8000-000000000002');
    const slow = tracked(spin(server, 4, { token, from: '203.0.113.1' }));
    await connectionsTaken(server, 1);

    // On the embedded database the connection taken may first be the server's own work for a moment
    // (a job's query), so /health is asked until it answers busy or the statement has ended.
    const health =
      testDatabase() === 'postgres'
        ? await call(server, 'GET', '/health')
        : await healthWhileBusy(server, slow);
    const page = await fetch(`${server.url}/`);
    const signIn = await call(server, 'POST', '/auth/v1/token?grant_type=password', {
      from: '203.0.113.2',
      body: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    const read = await call(server, 'GET', '/rest/v1/acks?select=n', { from: '203.0.113.3' });
    expect(slow.done()).toBe(false);

    expect(health.status).toBe(200);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    if (testDatabase() === 'postgres') {
      // Other connections are free: everything is answered as usual.
      expect(health.body).toEqual({ status: 'ok', database: 'postgres' });
      expect(signIn).toMatchObject({ status: 400, body: { error_code: 'invalid_credentials' } });
      expect(read).toMatchObject({ status: 200, body: [] });
    } else {
      // One connection, taken: /health says so, and work that needs the database is turned away
      // after DB_ACQUIRE_TIMEOUT_MS with a 503 and Retry-After, in each service's format.
      expect(health.body).toEqual({ status: 'ok', database: 'embedded', busy: true });
      expect(signIn.status).toBe(503);
      expect(signIn.headers.get('retry-after')).toBe('1');
      expect(read).toMatchObject({ status: 503, body: { code: 'PGRST003' } });
    }
    expect(await slow.promise).toMatchObject({ status: 200, body: 1 });
  });
});

describe(`a full pool (${testDatabase()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('answers 503 with Retry-After at once, in the format of each service', async () => {
    const capacity = server.db.activity.capacity;
    expect(capacity).toBe(testDatabase() === 'postgres' ? 3 : 1);
    // Each signed-in user may hold one connection: `capacity` users fill the pool.
    const holders = await Promise.all(
      Array.from({ length: capacity }, async (_, index) => {
        const token = await userToken(server, `00000000-0000-4000-8000-00000000010${index}`);
        return tracked(spin(server, 4, { token, from: `198.51.100.${index + 1}` }));
      }),
    );
    await connectionsTaken(server, capacity);

    const rest = await call(server, 'GET', '/rest/v1/acks?select=n', { from: '203.0.113.10' });
    const storage = await call(server, 'GET', '/storage/v1/bucket', {
      token: server.serviceRoleKey,
      apikey: server.serviceRoleKey,
    });
    const auth = await call(server, 'POST', '/auth/v1/token?grant_type=password', {
      from: '203.0.113.11',
      body: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    expect(holders.some((holder) => holder.done())).toBe(false);

    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('1');
    expect(rest.body).toEqual({
      code: 'PGRST003',
      message: 'Timed out acquiring connection from connection pool.',
      details: null,
      hint: null,
    });
    expect(storage.status).toBe(503);
    expect(storage.headers.get('retry-after')).toBe('1');
    expect(storage.body).toEqual({
      statusCode: '503',
      error: 'DatabaseTimeout',
      message: 'The connection to the database timed out',
    });
    expect(auth.status).toBe(503);
    expect(auth.headers.get('retry-after')).toBe('1');
    expect(auth.body).toMatchObject({ code: 503, error_code: 'service_unavailable' });

    for (const holder of holders) expect(await holder.promise).toMatchObject({ status: 200, body: 1 });
  });
});

describe(`one client's share (${testDatabase()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    // Long enough a wait that queued work is served rather than refused: the order shows who goes first.
    server = await startServer({ DB_ACQUIRE_TIMEOUT_MS: '15000' });
  });
  afterAll(() => server?.close());

  it('queues an anonymous address behind its own work, never in front of other clients', async () => {
    const first = tracked(spin(server, 1.5, { from: '192.0.2.1' }));
    await connectionsTaken(server, 1);
    const more = [
      tracked(spin(server, 1.5, { from: '192.0.2.1' })),
      tracked(spin(server, 1.5, { from: '192.0.2.1' })),
    ];
    // Queued behind its own first statement (its share is one connection) ...
    while (server.db.activity.waiting < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const other = await call(server, 'GET', '/rest/v1/acks?select=n', { from: '192.0.2.2' });
    expect(other).toMatchObject({ status: 200, body: [] });
    // ... so another address is answered before them (on PostgreSQL before even the first ends).
    expect(more.some((request) => request.done())).toBe(false);
    if (testDatabase() === 'postgres') expect(first.done()).toBe(false);
    for (const request of [first, ...more])
      expect(await request.promise).toMatchObject({ status: 200, body: 1 });
  });
});

describe(`ending a statement loses no acknowledged write (${testDatabase()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('keeps every row whose insert was answered 201, before and while the database reopens', async () => {
    const acknowledged: number[] = [];
    const insert = async (n: number, from: string) => {
      const reply = await call(server, 'POST', '/rest/v1/acks', { body: { n }, from });
      if (reply.status === 201) acknowledged.push(n);
      else expect(reply.status).toBe(503); // turned away while the database was busy or reopening
    };
    for (let n = 1; n <= 20; n++) await insert(n, '192.0.2.10');

    const slow = tracked(spin(server, 30, { from: '192.0.2.11' }));
    // Writers keep going while the statement runs, is ended, and the database comes back.
    const writers = (async () => {
      for (let n = 21; !slow.done() || n <= 40; n++) await insert(n, `192.0.2.${20 + (n % 5)}`);
    })();
    expect(await slow.promise).toMatchObject({ status: 500, body: TIMEOUT_BODY });
    await writers;
    // Numbered far past the writers' (on an idle PostgreSQL they reach the hundreds in the 3 s).
    for (let n = 1_000_001; n <= 1_000_010; n++) await insert(n, '192.0.2.30');

    // Read in the database itself: an idle PostgreSQL takes more rows than one API read returns (1,000).
    const stored = await server.db.query<{ n: number }>('select n from public.acks order by n');
    const rows = stored.rows.map((row) => row.n);
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    expect(rows).toEqual([...acknowledged].sort((a, b) => a - b));
  });
});
