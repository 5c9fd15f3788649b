import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import { ConfigError } from './config.ts';

/**
 * The platform's signing keys and API keys, in Supabase's formats:
 * - JWT_SECRET (HS256) signs the legacy API keys — JWTs whose `role` claim is `anon` or
 *   `service_role` — and, by default, user access tokens;
 * - an asymmetric signing key (ES256 or RS256, decision 178), when chosen, signs user access tokens
 *   with its `kid`; the previous one keeps verifying after a rotation and both are published at
 *   /auth/v1/.well-known/jwks.json;
 * - the new API keys (`sb_publishable_…`, `sb_secret_…`, decision 179) stand for the anon and
 *   service_role keys.
 * Values from the environment win; what is missing is generated on first start and kept in
 * DATA_DIR/keys.json (mode 0600).
 */
export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** `sb_publishable_…`: the anon role, safe in browsers. */
  publishableKey: string;
  /** `sb_secret_…`: the service_role role, server-side only. */
  secretKey: string;
  /** Asymmetric keys, newest first; the first signs user tokens unless the algorithm is HS256. */
  signingKeys: SigningKey[];
  /** Whether user access tokens are signed with `signingKeys[0]` (else with JWT_SECRET). */
  asymmetric: boolean;
  /** Whether anything was generated (or re-derived) during this start. */
  generated: boolean;
}

export type AsymmetricAlgorithm = 'ES256' | 'RS256';

export interface SigningKey {
  kid: string;
  alg: AsymmetricAlgorithm;
  /** The private JWK (with `kid` and `alg`), as stored. */
  privateJwk: JWK;
  /** What /.well-known/jwks.json publishes: the public half, for verifying only. */
  publicJwk: JWK;
}

interface StoredKeys {
  jwt_secret?: string;
  anon_key?: string;
  service_role_key?: string;
  /** Private JWKs, newest first (the current key, then the previous one). */
  signing_keys?: JWK[];
}

export const KEYS_FILE = 'keys.json';
const TEN_YEARS = 10 * 365 * 24 * 3600;
/** The current key and the one before it: tokens signed before a rotation verify until they expire. */
export const KEPT_SIGNING_KEYS = 2;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

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

/**
 * A new-format API key derived from JWT_SECRET, in Supabase's shape (`sb_publishable_` or
 * `sb_secret_`, 22 random-looking letters and digits, `_`, 8 more). Derived, like the legacy keys re-derived
 * from a secret given by the environment: the same secret always gives the same keys, and changing
 * the secret replaces them.
 */
export function deriveApiKey(secret: string, kind: 'publishable' | 'secret'): string {
  const digest = createHmac('sha512', secret)
    .update(`highgrade api key:${kind}`)
    .digest('base64url')
    .replace(/[-_]/g, '');
  return `sb_${kind}_${digest.slice(0, 22)}_${digest.slice(22, 30)}`;
}

export function isNewApiKey(value: string): boolean {
  return value.startsWith('sb_publishable_') || value.startsWith('sb_secret_');
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

export async function writeStored(dataDir: string, next: StoredKeys): Promise<void> {
  const path = join(dataDir, KEYS_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

export { readStored as readStoredKeys };

/** A fresh private JWK for `alg`, with a `kid` (a UUID, as Supabase's) and its `alg`. */
export async function generateSigningJwk(alg: AsymmetricAlgorithm): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg };
}

/** The algorithm a private JWK is for: P-256 EC keys are ES256, RSA keys RS256; anything else is refused. */
function algorithmOf(jwk: JWK): AsymmetricAlgorithm | undefined {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && (jwk.alg === undefined || jwk.alg === 'ES256'))
    return 'ES256';
  if (jwk.kty === 'RSA' && (jwk.alg === undefined || jwk.alg === 'RS256')) return 'RS256';
  return undefined;
}

/** Checks a private JWK and derives its public half; a message naming the problem otherwise. */
export async function signingKeyFrom(jwk: unknown, where: string): Promise<SigningKey | string> {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return `${where} must be a JWK object`;
  const candidate = jwk as JWK;
  const alg = algorithmOf(candidate);
  if (!alg) return `${where} must be an EC P-256 (ES256) or RSA (RS256) key`;
  if (typeof candidate.d !== 'string') return `${where} must be a private key (with "d")`;
  if (typeof candidate.kid !== 'string' || candidate.kid === '') return `${where} needs a "kid"`;
  try {
    await importJWK({ ...candidate, alg }, alg);
  } catch {
    return `${where} is not a valid ${alg} key`;
  }
  const publicJwk: JWK = { ...candidate };
  for (const member of PRIVATE_MEMBERS) delete publicJwk[member];
  delete publicJwk.key_ops;
  return {
    kid: candidate.kid,
    alg,
    privateJwk: { ...candidate, alg },
    publicJwk: { ...publicJwk, alg, use: 'sig', key_ops: ['verify'], ext: true },
  };
}

/** JWT_SIGNING_KEYS: a JSON array of private JWKs or a JWK set (`{"keys": [...]}`), first one current. */
async function keysFromEnvironment(raw: string, problems: string[]): Promise<SigningKey[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('JWT_SIGNING_KEYS must be JSON: an array of private JWKs or {"keys": [...]}');
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list) || list.length === 0) {
    problems.push('JWT_SIGNING_KEYS must hold at least one private JWK');
    return [];
  }
  const keys: SigningKey[] = [];
  for (const [index, jwk] of list.entries()) {
    const key = await signingKeyFrom(jwk, `JWT_SIGNING_KEYS[${index}]`);
    if (typeof key === 'string') problems.push(key);
    else keys.push(key);
  }
  return keys;
}

export async function resolveKeys(options: {
  dataDir: string;
  jwtSecret: string | undefined;
  anonKey: string | undefined;
  serviceRoleKey: string | undefined;
  publishableKey?: string | undefined;
  secretKey?: string | undefined;
  jwtSigningAlgorithm?: 'HS256' | AsymmetricAlgorithm;
  jwtSigningKeys?: string | undefined;
}): Promise<Keys> {
  const stored = await readStored(options.dataDir);
  let generated = false;
  let signingChanged = false;

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

  const newKey = (kind: 'publishable' | 'secret', fromEnv: string | undefined, envName: string) => {
    if (fromEnv === undefined) return deriveApiKey(jwtSecret, kind);
    if (!fromEnv.startsWith(`sb_${kind}_`) || fromEnv.length < `sb_${kind}_`.length + 20) {
      problems.push(`${envName} must start with "sb_${kind}_" followed by at least 20 characters`);
    }
    return fromEnv;
  };
  const publishableKey = newKey('publishable', options.publishableKey, 'PUBLISHABLE_KEY');
  const secretKey = newKey('secret', options.secretKey, 'SECRET_KEY');
  if (publishableKey === secretKey) problems.push('PUBLISHABLE_KEY and SECRET_KEY must differ');

  const algorithm = options.jwtSigningAlgorithm ?? 'HS256';
  let signingKeys: SigningKey[] = [];
  if (options.jwtSigningKeys !== undefined) {
    signingKeys = await keysFromEnvironment(options.jwtSigningKeys, problems);
    if (algorithm !== 'HS256' && signingKeys[0] && signingKeys[0].alg !== algorithm) {
      problems.push(
        `JWT_SIGNING_KEYS' first key is ${signingKeys[0].alg}, not JWT_SIGNING_ALGORITHM ${algorithm}`,
      );
    }
  } else {
    for (const [index, jwk] of (stored.signing_keys ?? []).entries()) {
      const key = await signingKeyFrom(jwk, `signing_keys[${index}] in ${join(options.dataDir, KEYS_FILE)}`);
      if (typeof key === 'string') problems.push(key);
      else signingKeys.push(key);
    }
    // Chosen now, or switched to another algorithm: a new current key; the old one keeps verifying.
    if (algorithm !== 'HS256' && signingKeys[0]?.alg !== algorithm) {
      const fresh = await signingKeyFrom(await generateSigningJwk(algorithm), 'generated key');
      if (typeof fresh === 'string') throw new Error(fresh);
      signingKeys = [fresh, ...signingKeys].slice(0, KEPT_SIGNING_KEYS);
      signingChanged = true;
      generated = true;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // With HS256 chosen, keys from an earlier asymmetric period still verify (and are published) but
  // sign nothing; JWT_SIGNING_KEYS given with HS256 verifies only, for a switch-over.
  const asymmetric = algorithm !== 'HS256' && signingKeys.length > 0;

  // A secret given by the environment is never copied to disk; keys derived from it are re-derived
  // on each start (any of them verifies, since they share the secret). A generated signing key is
  // kept in any case: it cannot be re-derived.
  const writesSecrets = generated && options.jwtSecret === undefined;
  if (writesSecrets || signingChanged) {
    const next: StoredKeys = writesSecrets
      ? { ...stored, jwt_secret: jwtSecret, anon_key: anonKey, service_role_key: serviceRoleKey }
      : { ...stored };
    if (signingChanged) next.signing_keys = signingKeys.map((key) => key.privateJwk);
    await writeStored(options.dataDir, next);
  }
  return {
    jwtSecret,
    anonKey,
    serviceRoleKey,
    publishableKey,
    secretKey,
    signingKeys,
    asymmetric,
    generated,
  };
}

/**
 * `npm run keys -- rotate`: a new current signing key of `alg`, the current one kept as the previous
 * (it verifies tokens issued before the rotation until they expire), older ones dropped. The server
 * signs with the new key after its next start.
 */
export async function rotateSigningKey(dataDir: string, alg: AsymmetricAlgorithm): Promise<SigningKey[]> {
  const stored = await readStored(dataDir);
  const fresh = await generateSigningJwk(alg);
  const signing_keys = [fresh, ...(stored.signing_keys ?? [])].slice(0, KEPT_SIGNING_KEYS);
  await writeStored(dataDir, { ...stored, signing_keys });
  const keys: SigningKey[] = [];
  for (const jwk of signing_keys) {
    const key = await signingKeyFrom(jwk, 'stored key');
    if (typeof key !== 'string') keys.push(key);
  }
  return keys;
}
