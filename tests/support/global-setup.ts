import { ensureWebBuild } from '#server/web-build.ts';
import { ensureServerBuild } from '../../scripts/server-build.mjs';
import { pgliteTemplate } from './pglite-template.ts';

/**
 * Once per test run: the web app and the server's bundle are built (servers started as processes run
 * the bundle, as `npm start` does) and, for the embedded tier, a migrated PGlite template is ready to
 * copy. Workers inherit the environment set here.
 */
export default async function setup(): Promise<void> {
  await ensureServerBuild((message) => process.stdout.write(`${message}\n`));
  // HIGHGRADE_WEB_DIR runs the suite against an already built copy of the web app instead.
  if (!process.env.HIGHGRADE_WEB_DIR) await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
  if (process.env.TEST_DB !== 'postgres') {
    process.env.HIGHGRADE_PGLITE_TEMPLATE = await pgliteTemplate();
  }
}
