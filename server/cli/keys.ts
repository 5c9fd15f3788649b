import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { KEYS_FILE } from '../keys.ts';

/** `npm run keys`: shows the API keys a running installation uses (from the environment or DATA_DIR). */
try {
  const config = loadConfig();
  let stored: Record<string, string> = {};
  try {
    stored = JSON.parse(await readFile(join(config.dataDir, KEYS_FILE), 'utf8'));
  } catch {
    // not generated yet
  }
  const anon = config.anonKey ?? stored.anon_key;
  const service = config.serviceRoleKey ?? stored.service_role_key;
  if (!anon || !service) {
    process.stdout.write(
      `No keys yet: they are generated into ${join(config.dataDir, KEYS_FILE)} on first start (npm start).\n`,
    );
  } else {
    process.stdout.write(
      [
        `ANON_KEY (safe in browsers; row-level security applies):`,
        `  ${anon}`,
        `SERVICE_ROLE_KEY (server-side only: bypasses row-level security; never ship it to a browser):`,
        `  ${service}`,
        `JWT_SECRET: ${config.jwtSecret ? 'from the environment' : `in ${join(config.dataDir, KEYS_FILE)}`}`,
        '',
      ].join('\n'),
    );
  }
} catch (error) {
  process.stderr.write(`highgrade: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
