/**
 * A HighGrade server as its own operating-system process, configured from the environment, for the
 * realtime tests that need several processes on one PostgreSQL database (and one to kill). Unlike
 * `npm start` it never builds the web app: it serves HIGHGRADE_WEB_DIR.
 */
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';

const server = await startServer(loadConfig(process.env), {
  logger: false,
  webDir: process.env.HIGHGRADE_WEB_DIR || WEB_DIST,
});
process.stdout.write(`running at ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
