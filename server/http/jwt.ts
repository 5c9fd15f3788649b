import { createHash, timingSafeEqual } from 'node:crypto';
import { type CryptoKey, decodeProtectedHeader, errors, importJWK, type JWTPayload, jwtVerify } from 'jose';
import { type Keys, secretBytes } from '../keys.ts';

export type Claims = JWTPayload & Record<string, unknown>;

export type JwtFailure = 'expired' | 'invalid';

export class JwtError extends Error {
  constructor(
    readonly reason: JwtFailure,
    message: string,
  ) {
    super(message);
    this.name = 'JwtError';
  }
}

/** A public key that verifies user tokens signed with an asymmetric key (decision 178). */
export interface VerificationKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  key: CryptoKey;
}

/** A new-format API key (`sb_publishable_…`, `sb_secret_…`) and the role it stands for (decision 179). */
export interface OpaqueApiKey {
  key: string;
  role: 'anon' | 'service_role';
}

export interface JwtVerifierOptions {
  maxEntries?: number;
  /** Public halves of the asymmetric signing keys, current and previous. */
  publicKeys?: VerificationKey[];
  /** The new-format API keys, accepted wherever a legacy key or token is. */
  apiKeys?: OpaqueApiKey[];
}

const ASYMMETRIC = new Set(['ES256', 'RS256']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Verifies the project's tokens and remembers verified tokens until they expire, so an authenticated
 * request costs about as much as an anonymous one:
 * - HS256 JWTs signed with the platform secret (the legacy API keys, and user tokens by default);
 * - ES256/RS256 JWTs signed with one of the project's asymmetric keys, found by `kid` (decision 178);
 * - the new API keys (`sb_…`), which are not JWTs: the claims of the role they stand for (179).
 * No other algorithm is accepted (no `alg: none`, no confusion between a public key and the secret).
 */
export class JwtVerifier {
  private readonly key: Uint8Array;
  private readonly maxEntries: number;
  private readonly publicKeys: VerificationKey[];
  private readonly apiKeys: { digest: Buffer; role: 'anon' | 'service_role' }[];
  private readonly cache = new Map<string, { claims: Claims; exp: number | undefined }>();

  constructor(secret: string, options: number | JwtVerifierOptions = {}) {
    const settings = typeof options === 'number' ? { maxEntries: options } : options;
    this.key = secretBytes(secret);
    this.maxEntries = settings.maxEntries ?? 10_000;
    this.publicKeys = settings.publicKeys ?? [];
    this.apiKeys = (settings.apiKeys ?? []).map(({ key, role }) => ({ digest: digest(key), role }));
  }

  /** The verifier of a started server: its secret, its signing keys' public halves, its new API keys. */
  static async forKeys(keys: Keys, maxEntries?: number): Promise<JwtVerifier> {
    const publicKeys: VerificationKey[] = [];
    for (const signing of keys.signingKeys) {
      const key = await importJWK(signing.publicJwk, signing.alg);
      publicKeys.push({ kid: signing.kid, alg: signing.alg, key: key as CryptoKey });
    }
    return new JwtVerifier(keys.jwtSecret, {
      maxEntries,
      publicKeys,
      apiKeys: [
        { key: keys.publishableKey, role: 'anon' },
        { key: keys.secretKey, role: 'service_role' },
      ],
    });
  }

  /** The role a new-format API key stands for, or undefined when it is not one of the project's. */
  apiKeyRole(value: string): 'anon' | 'service_role' | undefined {
    const given = digest(value);
    return this.apiKeys.find((entry) => timingSafeEqual(entry.digest, given))?.role;
  }

  async verify(token: string): Promise<Claims> {
    const now = Math.floor(Date.now() / 1000);
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.exp !== undefined && hit.exp <= now) {
        this.cache.delete(token);
        throw new JwtError('expired', 'JWT expired');
      }
      // Refresh its place in the LRU order.
      this.cache.delete(token);
      this.cache.set(token, hit);
      return hit.claims;
    }
    if (token.length > 16_384) throw new JwtError('invalid', 'JWT is too long');
    if (token.startsWith('sb_')) {
      const role = this.apiKeyRole(token);
      if (!role) throw new JwtError('invalid', 'Invalid API key');
      // What Supabase's gateway forwards for such a key: the claims of the legacy key of its role.
      return { iss: 'supabase', role } as Claims;
    }
    let claims: Claims;
    try {
      const { key, alg } = this.keyFor(token);
      ({ payload: claims } = (await jwtVerify(token, key, { algorithms: [alg] })) as { payload: Claims });
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new JwtError('expired', 'JWT expired');
      throw new JwtError('invalid', 'Invalid JWT');
    }
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(token, { claims, exp: typeof claims.exp === 'number' ? claims.exp : undefined });
    return claims;
  }

  /** The key for a token's header: the secret for HS256, the public key of its `kid` otherwise. */
  private keyFor(token: string): { key: Uint8Array | CryptoKey; alg: string } {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new JwtError('invalid', 'Invalid JWT');
    }
    if (header.alg === 'HS256') return { key: this.key, alg: 'HS256' };
    if (typeof header.alg !== 'string' || !ASYMMETRIC.has(header.alg))
      throw new JwtError('invalid', 'Invalid JWT');
    const key = this.publicKeys.find(
      (candidate) => candidate.alg === header.alg && candidate.kid === header.kid,
    );
    if (!key) throw new JwtError('invalid', 'Invalid JWT');
    return { key: key.key, alg: key.alg };
  }

  /** Forgets a token (e.g. after sign-out), so a revoked session is not served from the cache. */
  forget(token: string): void {
    this.cache.delete(token);
  }
}
