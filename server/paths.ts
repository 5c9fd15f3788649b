import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder (the one holding package.json), found by walking up from this module.
 * The server runs both from its sources (server/*.ts) and from the bundle `npm start` builds
 * (.build/server/*.js, decision 086): a fixed `new URL('../', import.meta.url)` would point at
 * different folders in the two cases, so every path the server reads at run time (migrations, the
 * built web app) starts from here instead.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
