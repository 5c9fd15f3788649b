import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The database tiers of the test run: the embedded PGlite, or PostgreSQL when TEST_PG_URL is set. */
export type TestDatabase = 'pglite' | 'postgres';

export function testDatabase(): TestDatabase {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/** Creates an empty database on the TEST_PG_URL server; returns its URL and a function dropping it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error('TEST_PG_URL is not set: the PostgreSQL tier needs a server');
  const name = `hg_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
