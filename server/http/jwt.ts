import { errors, type JWTPayload, jwtVerify } from 'jose';
import { secretBytes } from '../keys.ts';

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

/**
 * Verifies HS256 JWTs signed with the platform secret and remembers verified tokens until they
 * expire, so an authenticated request costs about as much as an anonymous one. Only HS256 is
 * accepted (no `alg: none`, no algorithm confusion).
 */
export class JwtVerifier {
  private readonly key: Uint8Array;
  private readonly cache = new Map<string, { claims: Claims; exp: number | undefined }>();

  constructor(
    secret: string,
    private readonly maxEntries = 10_000,
  ) {
    this.key = secretBytes(secret);
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
    let claims: Claims;
    try {
      ({ payload: claims } = (await jwtVerify(token, this.key, { algorithms: ['HS256'] })) as {
        payload: Claims;
      });
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

  /** Forgets a token (e.g. after sign-out), so a revoked session is not served from the cache. */
  forget(token: string): void {
    this.cache.delete(token);
  }
}
