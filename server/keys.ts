import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { ConfigError } from './config.ts';

/**
 * The platform's signing secret and the two API keys, in Supabase's format: HS256 JWTs signed with
 * JWT_SECRET whose `role` claim is `anon` or `service_role`. Values from the environment win; what
 * is missing is generated on first start and kept in DATA_DIR/keys.json (mode 0600).
 */
export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Whether anything was generated (or re-derived) during this start. */
  generated: boolean;
}

interface StoredKeys {
  jwt_secret?: string;
  anon_key?: string;
  service_role_key?: string;
}

export const KEYS_FILE = 'keys.json';
const TEN_YEARS = 10 * 365 * 24 * 3600;

export function secretBytes(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signApiKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role, iss: 'supabase' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + TEN_YEARS)
    .sign(secretBytes(secret));
}

async function roleOf(token: string, secret: string): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, secretBytes(secret), { algorithms: ['HS256'] });
    return typeof payload.role === 'string' ? payload.role : undefined;
  } catch {
    return undefined;
  }
}

async function readStored(dataDir: string): Promise<StoredKeys> {
  try {
    return JSON.parse(await readFile(join(dataDir, KEYS_FILE), 'utf8')) as StoredKeys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError([`${join(dataDir, KEYS_FILE)} is unreadable or not valid JSON`]);
  }
}

export async function resolveKeys(options: {
  dataDir: string;
  jwtSecret: string | undefined;
  anonKey: string | undefined;
  serviceRoleKey: string | undefined;
}): Promise<Keys> {
  const stored = await readStored(options.dataDir);
  let generated = false;

  const jwtSecret = options.jwtSecret ?? stored.jwt_secret ?? randomBytes(48).toString('base64url');
  if (jwtSecret !== stored.jwt_secret && options.jwtSecret === undefined) generated = true;

  const problems: string[] = [];
  const resolveKey = async (
    role: 'anon' | 'service_role',
    fromEnv: string | undefined,
    fromFile: string | undefined,
    envName: string,
  ): Promise<string> => {
    if (fromEnv !== undefined) {
      if ((await roleOf(fromEnv, jwtSecret)) !== role) {
        problems.push(`${envName} must be a JWT signed with JWT_SECRET whose role claim is "${role}"`);
      }
      return fromEnv;
    }
    if (fromFile !== undefined && (await roleOf(fromFile, jwtSecret)) === role) return fromFile;
    generated = true;
    return signApiKey(jwtSecret, role);
  };

  const anonKey = await resolveKey('anon', options.anonKey, stored.anon_key, 'ANON_KEY');
  const serviceRoleKey = await resolveKey(
    'service_role',
    options.serviceRoleKey,
    stored.service_role_key,
    'SERVICE_ROLE_KEY',
  );
  if (problems.length > 0) throw new ConfigError(problems);

  // A secret given by the environment is never copied to disk; keys derived from it are re-derived
  // on each start (any of them verifies, since they share the secret).
  if (generated && options.jwtSecret === undefined) {
    const next: StoredKeys = { jwt_secret: jwtSecret, anon_key: anonKey, service_role_key: serviceRoleKey };
    const path = join(options.dataDir, KEYS_FILE);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  }
  return { jwtSecret, anonKey, serviceRoleKey, generated };
}
