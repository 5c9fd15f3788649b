import { reloadSchemaCache } from '#server/rest/schema-cache.ts';
import { ALICE, BOB, REST_FIXTURE_SQL } from './rest-fixture-schema.ts';
import type { TestServer } from './test-server.ts';
import { userToken as mintUserToken } from './tokens.ts';

export { ALICE, BOB, REST_FIXTURE_SQL };

/**
 * Creates the fixture schema in the server's database and reloads the data API's schema cache. The
 * users the tokens below name exist, as they would behind real tokens (the data API refuses a token
 * whose account is gone, decision 097).
 */
export async function installRestFixture(server: TestServer): Promise<void> {
  await server.db.exec(REST_FIXTURE_SQL);
  await server.db.query(
    `insert into auth.users (id, email, aud, role) select id, right(id::text, 1) || '@example.com', 'authenticated', 'authenticated'
     from unnest($1::uuid[]) as id on conflict (id) do nothing`,
    [[ALICE, BOB]],
  );
  await reloadSchemaCache(server.db);
}

/** A signed-in user's access token, as the auth service would issue it (tests/support/tokens.ts). */
export function userToken(server: TestServer, sub: string): Promise<string> {
  return mintUserToken(server.jwtSecret, sub, { claims: { email: `${sub.slice(-1)}@example.com` } });
}

export interface RestReply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when empty). */
  body: unknown;
}

/** Raw HTTP to the data API (`/rest/v1` + path) with the anon key, or a bearer token when given. */
export function restHttp(server: TestServer, token?: string) {
  return async (
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<RestReply> => {
    const headers: Record<string, string> = { apikey: server.anonKey, ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${server.url}/rest/v1${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
}
