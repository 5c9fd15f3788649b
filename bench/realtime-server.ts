/**
 * The server as its own process for bench/realtime.ts, configured from the environment. Unlike
 * `npm start` it never builds the web app (it serves HIGHGRADE_WEB_DIR, or whatever web/dist holds).
 *
 * Started with an IPC channel (the PGlite target: the embedded database belongs to this process, so
 * the bench's writer cannot reach it any other way), it also runs the bench's statements: each message
 * `{ id, sql, params }` is answered with `{ id, rows, committedAt }` or `{ id, error }`, where
 * `committedAt` is the moment the statement returned here, as milliseconds since the epoch
 * (`performance.timeOrigin + performance.now()`), which the bench turns into its own clock.
 */
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';

const server = await startServer(loadConfig(process.env), {
  logger: false,
  webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST,
});

interface Asked {
  id: number;
  sql: string;
  params?: unknown[];
}

if (process.send) {
  const send = process.send.bind(process);
  process.on('message', (message: Asked) => {
    server.ctx.db.query(message.sql, message.params).then(
      (result) => {
        const committedAt = performance.timeOrigin + performance.now();
        send({ id: message.id, rows: result.rows, committedAt });
      },
      (error: unknown) =>
        send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
process.stdout.write(`running at ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
