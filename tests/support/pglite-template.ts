import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { migrate, readMigrations } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite.ts';
import { PROJECT_ROOT } from '#server/web-build.ts';

/**
 * A freshly initialised and fully migrated PGlite cluster, made once per set of migrations and
 * copied for each test server: initdb takes seconds, a copy takes milliseconds.
 */
export async function pgliteTemplate(): Promise<string> {
  const migrations = await readMigrations();
  const pglite = JSON.parse(
    await readFile(join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  const hash = createHash('sha256');
  hash.update(pglite.version);
  for (const file of migrations) hash.update(`${file.layer}/${file.name}:${file.checksum}\n`);
  const cacheDir = join(PROJECT_ROOT, 'node_modules/.cache/highgrade');
  const template = join(cacheDir, `pglite-${hash.digest('hex').slice(0, 16)}`);
  try {
    await stat(join(template, 'db', 'PG_VERSION'));
    return join(template, 'db');
  } catch {
    // build it below
  }
  const scratch = `${template}.tmp-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const db = await openPglite({ dataDir: scratch });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  await rm(template, { recursive: true, force: true });
  await rename(scratch, template);
  return join(template, 'db');
}
