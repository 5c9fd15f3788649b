import type { TestProject } from 'vitest/node';
import { ensureWebBuild } from '#server/web-build.ts';
import { ensureServerBuild } from '../../scripts/server-build.mjs';
import { pgliteTemplate, postgresTemplate } from './database-templates.ts';

/**
 * Once per test run and project: the web app and the server's bundle are built (servers started as
 * processes run the bundle, as `npm start` does), and a migrated template of the project's database
 * is ready to copy (decision 164): a PGlite cluster, or a database on the TEST_PG_URL server.
 * Workers inherit the environment set here.
 */
export default async function setup(project: TestProject): Promise<void> {
  await ensureServerBuild((message) => process.stdout.write(`${message}\n`));
  // HIGHGRADE_WEB_DIR runs the suite against an already built copy of the web app instead.
  if (!process.env.HIGHGRADE_WEB_DIR) await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
  const database = project.config.env?.TEST_DB ?? process.env.TEST_DB;
  if (database === 'postgres') {
    const adminUrl = process.env.TEST_PG_URL;
    if (!adminUrl) throw new Error('TEST_PG_URL is not set: the PostgreSQL tier needs a server');
    process.env.HIGHGRADE_PG_TEMPLATE = await postgresTemplate(adminUrl);
  } else {
    process.env.HIGHGRADE_PGLITE_TEMPLATE = await pgliteTemplate();
  }
}
