import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { secretBytes } from '../keys.ts';
import { StorageErrors } from './errors.ts';

/** Longest lifetime a signed download URL may have: ten years, as far as anyone plans. */
export const MAX_SIGNED_URL_SECONDS = 10 * 365 * 24 * 3600;

export type UploaderRole = 'anon' | 'authenticated' | 'service_role';

/**
 * Who created a signed upload URL. The upload later runs as this caller again, so the bucket's
 * policies decide a second time. Deliberately not `sub`/`role`: the token must never pass for the
 * user's own access token if someone presents it as a bearer token.
 */
export interface Uploader {
  owner: string | undefined;
  role: UploaderRole;
}

export interface UploadGrant extends Uploader {
  upsert: boolean;
  tokenId: string;
  expiresAt: Date;
}

/**
 * Signed URLs (decision 045): HS256 JWTs signed with the platform's JWT secret, bound to
 * `bucket/name` (claim `url`, as Supabase's) and an expiry. Download tokens carry nothing else;
 * upload tokens are marked `upload: true`, carry who created them and a unique id that can be
 * consumed once. A token of one kind is refused where the other is expected.
 */
export class SignedUrls {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = secretBytes(secret);
  }

  /** `transformations`: upstream's claim for a signed URL that renders an image (decision 228). */
  signDownload(url: string, expiresIn: number, transformations = ''): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(transformations ? { url, transformations } : { url })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .sign(this.key);
  }

  async verifyDownload(token: unknown, url: string): Promise<{ expiresAt: Date; transformations: string }> {
    const claims = await this.verify(token);
    if (claims.upload !== undefined || claims.url !== url) throw StorageErrors.invalidSignature();
    const transformations = typeof claims.transformations === 'string' ? claims.transformations : '';
    return { expiresAt: new Date(Number(claims.exp) * 1000), transformations };
  }

  signUpload(url: string, uploader: Uploader, upsert: boolean, expiresIn: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      url,
      upload: true,
      owner: uploader.owner ?? null,
      owner_role: uploader.role,
      upsert,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .sign(this.key);
  }

  async verifyUpload(token: unknown, url: string): Promise<UploadGrant> {
    const claims = await this.verify(token);
    if (claims.upload !== true || claims.url !== url) throw StorageErrors.invalidSignature();
    const role = claims.owner_role;
    if (
      (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') ||
      typeof claims.jti !== 'string' ||
      !/^[0-9a-f-]{36}$/.test(claims.jti) ||
      (claims.owner !== null && typeof claims.owner !== 'string')
    ) {
      throw StorageErrors.invalidSignature();
    }
    return {
      owner: typeof claims.owner === 'string' ? claims.owner : undefined,
      role,
      upsert: claims.upsert === true,
      tokenId: claims.jti,
      expiresAt: new Date(Number(claims.exp) * 1000),
    };
  }

  private async verify(token: unknown): Promise<Record<string, unknown>> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 8192) {
      throw StorageErrors.invalidJwt('jwt must be provided');
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
      });
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw StorageErrors.invalidJwt('jwt expired');
      throw StorageErrors.invalidJwt('invalid signature');
    }
  }
}
