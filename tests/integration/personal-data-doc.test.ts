/**
 * docs/personal-data.md lists every category of personal data the product stores (issue 33): every
 * table that holds a `user_id` column or references `auth.users` — found in the catalog of a migrated
 * database, so a table added later fails here until the page names it — and every table the page names
 * still exists.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { PROJECT_ROOT } from '#server/paths.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';

const PAGE = join(PROJECT_ROOT, 'docs/personal-data.md');
const SCHEMAS = ['auth', 'public', 'private', 'storage', 'realtime', 'jobs'];

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
let listed: Set<string>;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  const page = await readFile(PAGE, 'utf8');
  listed = new Set(
    [...page.matchAll(/`([a-z_]+)\.([a-z_]+)`/g)]
      .filter((match) => SCHEMAS.includes(match[1] as string))
      .map((match) => `${match[1]}.${match[2]}`),
  );
});
afterAll(() => database?.close());

async function tables(sql: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(sql);
  return rows.map((row) => row.name);
}

describe('docs/personal-data.md', () => {
  it('names every table with a user_id column or a reference to auth.users', async () => {
    const withUserId = await tables(
      `select distinct n.nspname || '.' || c.relname as name
       from pg_catalog.pg_attribute a
       join pg_catalog.pg_class c on c.oid = a.attrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where a.attname = 'user_id' and a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p')
         and n.nspname not in ('pg_catalog', 'information_schema')
       order by 1`,
    );
    const referencing = await tables(
      `select distinct n.nspname || '.' || c.relname as name
       from pg_catalog.pg_constraint k
       join pg_catalog.pg_class c on c.oid = k.conrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where k.contype = 'f' and k.confrelid = 'auth.users'::regclass
       order by 1`,
    );
    // The catalog query finds what it should: the product's and the auth service's tables.
    expect(withUserId).toEqual(
      expect.arrayContaining(['public.profiles', 'auth.sessions', 'public.bookings']),
    );
    expect(referencing.length).toBeGreaterThan(10);
    const missing = [...new Set([...withUserId, ...referencing])].filter((name) => !listed.has(name));
    expect(missing, 'tables holding personal data that docs/personal-data.md does not list').toEqual([]);
  });

  it('names only tables that exist', async () => {
    const existing = new Set(
      await tables(
        `select n.nspname || '.' || c.relname as name
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('r', 'p', 'v')`,
      ),
    );
    expect(listed.size).toBeGreaterThan(40);
    expect([...listed].filter((name) => !existing.has(name))).toEqual([]);
  });
});
