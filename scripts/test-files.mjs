// Which integration and compatibility test files run on which database (decision 164).
//
// Every file runs on the embedded database (PGlite), the one a fresh install uses. A file runs on
// PostgreSQL as well only when it carries, in its first lines, the marker
//
//   // @databases: both — <why: what it proves depends on the driver, SQL, RLS or realtime>
//
// Behaviour that does not depend on the database (HTTP shapes, auth flows, storage backends, mail,
// page serving…) is proven once.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders whose `*.test.ts` files run against a real server and database. */
export const DATABASE_TEST_DIRS = ['tests/integration', 'tests/compat'];

/** The marker, and the reason that must follow it. */
export const BOTH_MARKER = /^\s*\/\/\s*@databases:\s*both\s+—\s+(\S.*)$/m;

/** How far into a file the marker may be (it belongs at the top). */
const HEAD_LINES = 30;

function testFilesIn(root, dir) {
  const found = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFilesIn(root, path));
    else if (entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** The reason a file gives for running on both databases, or undefined when it runs on PGlite only. */
export function bothDatabasesReason(source) {
  const head = source.split('\n').slice(0, HEAD_LINES).join('\n');
  return BOTH_MARKER.exec(head)?.[1]?.trim();
}

/** Every database test file under `root`, with whether (and why) it runs on both databases. */
export function databaseTestFiles(root) {
  return DATABASE_TEST_DIRS.flatMap((dir) => testFilesIn(root, dir))
    .sort()
    .map((path) => {
      const reason = bothDatabasesReason(readFileSync(join(root, path), 'utf8'));
      return { path: relative(root, join(root, path)), both: reason !== undefined, reason };
    });
}
