/**
 * Builds a migrated PGlite cluster in the folder it is given, in a process of its own: the test
 * runner's main process never opens PGlite, so a V8 abort under PGlite (nodejs/node#64500, decisions
 * 259 and 264) can cost only this process, which `pgliteTemplate` then starts again (decision 268).
 * Usage: tsx tests/support/pglite-template-build.ts <dataDir>
 */
import { migrate } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-template-build.ts <dataDir>');
const db = await openPglite({ dataDir });
try {
  await migrate(db);
} finally {
  await db.close();
}
