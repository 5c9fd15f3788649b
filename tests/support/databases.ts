import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

/** The database tiers of the test run: the embedded PGlite, or PostgreSQL when TEST_PG_URL is set. */
export type TestDatabase = 'pglite' | 'postgres';

export function testDatabase(): TestDatabase {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * Creates a database on the TEST_PG_URL server — empty, or a copy of `template` (a migrated one made
 * by the global setup, decision 164) — and returns its URL and a function dropping it.
 */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error('TEST_PG_URL is not set: the PostgreSQL tier needs a server');
  const name = `hg_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
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

/**
 * A fresh, migrated database of the tier under test for a server or a test about to use `dataDir`: a
 * copy of the migrated PGlite template in `dataDir/db` (url undefined), or a copy of the migrated
 * PostgreSQL template on the server (its url). `drop` removes the PostgreSQL database; the data
 * directory is the caller's. Without a template (a test run outside the global setup) the server
 * migrates the empty database itself.
 */
export async function freshDatabase(dataDir: string): Promise<{ url?: string; drop(): Promise<void> }> {
  if (testDatabase() === 'postgres') return createPostgresDatabase(process.env.HIGHGRADE_PG_TEMPLATE);
  const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
  if (template) await copyPgliteTemplate(template, dataDir);
  return { drop: async () => {} };
}

/**
 * Copies a migrated PGlite cluster (its `db` folder, about 1,500 files) into `dataDir/db`, every file
 * of a folder at once. `fs.promises.cp` took 1.0–1.2 s a copy here, about half of it its own
 * per-file bookkeeping; this takes 0.5 s on disk and 30 ms on the tmpfs `npm test` gives the tests
 * (decision 264).
 */
export async function copyPgliteTemplate(template: string, dataDir: string): Promise<void> {
  const copyFolder = async (from: string, to: string): Promise<void> => {
    await mkdir(to, { recursive: true });
    const entries = await readdir(from, { withFileTypes: true });
    await Promise.all(
      entries.map((entry) =>
        entry.isDirectory()
          ? copyFolder(join(from, entry.name), join(to, entry.name))
          : copyFile(join(from, entry.name), join(to, entry.name)),
      ),
    );
  };
  await copyFolder(template, join(dataDir, 'db'));
}
