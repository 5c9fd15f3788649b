/**
 * The server as its own process for bench/realtime.ts, configured from the environment. Unlike
 * `npm start` it never builds the web app (it serves HIGHGRADE_WEB_DIR, or whatever web/dist holds).
 */
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';

const server = await startServer(loadConfig(process.env), {
  logger: false,
  webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST,
});
process.stdout.write(`running at ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
