import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { deriveApiKey, KEYS_FILE, readStoredKeys, rotateSigningKey, signApiKey } from '../keys.ts';

/**
 * `npm run keys`: shows the API keys a running installation uses (from the environment or DATA_DIR),
 * legacy and new-format, and its signing keys. `npm run keys -- rotate`: a new asymmetric signing key
 * (decision 178); the current one keeps verifying as the previous key.
 */
async function rotate(): Promise<void> {
  const config = loadConfig();
  if (config.jwtSigningKeys !== undefined) {
    throw new ConfigError([
      'JWT_SIGNING_KEYS is set: rotate by putting the new private JWK first in it (keep the previous one second)',
    ]);
  }
  const stored = await readStoredKeys(config.dataDir);
  const currentAlg =
    stored.signing_keys?.[0]?.alg === 'RS256' ? 'RS256' : stored.signing_keys?.[0] ? 'ES256' : undefined;
  const alg: 'ES256' | 'RS256' | undefined =
    config.jwtSigningAlgorithm !== 'HS256' ? config.jwtSigningAlgorithm : currentAlg;
  if (!alg) {
    throw new ConfigError([
      'User tokens are signed with JWT_SECRET (HS256): set JWT_SIGNING_ALGORITHM=ES256 (or RS256) and restart to use a signing key',
    ]);
  }
  const keys = await rotateSigningKey(config.dataDir, alg);
  process.stdout.write(
    [
      `New ${alg} signing key ${keys[0]?.kid} in ${join(config.dataDir, KEYS_FILE)}.`,
      keys[1] ? `The previous key ${keys[1].kid} keeps verifying tokens issued before.` : '',
      'Restart the server to sign with the new key.',
      '',
    ]
      .filter((line, index, all) => line !== '' || index === all.length - 1)
      .join('\n'),
  );
}

async function show(): Promise<void> {
  const config = loadConfig();
  const stored = await readStoredKeys(config.dataDir);
  const secret = config.jwtSecret ?? stored.jwt_secret;
  // With JWT_SECRET from the environment nothing is stored: the server re-derives the legacy keys at
  // each start, and any key signed with the secret is as valid as those.
  const derived = config.jwtSecret !== undefined && !stored.anon_key;
  const anon =
    config.anonKey ??
    stored.anon_key ??
    (derived ? await signApiKey(config.jwtSecret as string, 'anon') : undefined);
  const service =
    config.serviceRoleKey ??
    stored.service_role_key ??
    (derived ? await signApiKey(config.jwtSecret as string, 'service_role') : undefined);
  if (!anon || !service || !secret) {
    process.stdout.write(
      `No keys yet: they are generated into ${join(config.dataDir, KEYS_FILE)} on first start (npm start).\n`,
    );
    return;
  }
  const signing = config.jwtSigningKeys !== undefined ? 'from JWT_SIGNING_KEYS' : stored.signing_keys;
  process.stdout.write(
    [
      `PUBLISHABLE_KEY (safe in browsers; row-level security applies; the anon role):`,
      `  ${config.publishableKey ?? deriveApiKey(secret, 'publishable')}`,
      `SECRET_KEY (server-side only: the service_role role, bypasses row-level security):`,
      `  ${config.secretKey ?? deriveApiKey(secret, 'secret')}`,
      `ANON_KEY (legacy JWT key; safe in browsers; row-level security applies):`,
      `  ${anon}`,
      `SERVICE_ROLE_KEY (legacy JWT key; server-side only: bypasses row-level security; never ship it to a browser):`,
      `  ${service}`,
      `JWT_SECRET: ${config.jwtSecret ? 'from the environment' : `in ${join(config.dataDir, KEYS_FILE)}`}`,
      `User tokens signed with: ${config.jwtSigningAlgorithm === 'HS256' ? 'JWT_SECRET (HS256)' : config.jwtSigningAlgorithm}`,
      typeof signing === 'string'
        ? `Signing keys: ${signing}`
        : signing && signing.length > 0
          ? `Signing keys (current first; public at /auth/v1/.well-known/jwks.json): ${signing.map((key) => `${key.kid} (${key.alg})`).join(', ')}`
          : '',
      '',
    ]
      .filter((line, index, all) => line !== '' || index === all.length - 1)
      .join('\n'),
  );
}

try {
  const command = process.argv[2];
  if (command === 'rotate') await rotate();
  else if (command === undefined || command === 'show') await show();
  else
    throw new ConfigError([
      `Unknown command "${command}": use \`npm run keys\` or \`npm run keys -- rotate\``,
    ]);
} catch (error) {
  process.stderr.write(`highgrade: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
