import { ensureWebBuild } from '#server/web-build.ts';
import { pgliteTemplate } from './pglite-template.ts';

/**
 * Once per test run: the web app is built (the server serves it) and, for the embedded tier, a
 * migrated PGlite template is ready to copy. Workers inherit the environment set here.
 */
export default async function setup(): Promise<void> {
  // HIGHGRADE_WEB_DIR runs the suite against an already built copy of the web app instead.
  if (!process.env.HIGHGRADE_WEB_DIR) await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
  if (process.env.TEST_DB !== 'postgres') {
    process.env.HIGHGRADE_PGLITE_TEMPLATE = await pgliteTemplate();
  }
}
