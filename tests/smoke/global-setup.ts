import { ensureWebBuild } from '#server/web-build.ts';
import { ensureServerBuild } from '../../scripts/server-build.mjs';

/**
 * The smoke tier starts the server as `npm start` does, on an empty data directory (no template: a
 * real first start, migrations included). The bundle and the web app are built once here, on the
 * Node.js line under test (a bundle made on another line is the same JavaScript and is reused).
 */
export default async function setup(): Promise<void> {
  await ensureServerBuild((message) => process.stdout.write(`${message}\n`));
  await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
}
