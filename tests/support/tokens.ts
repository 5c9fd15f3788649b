import { SignJWT } from 'jose';

/**
 * The one place tests mint JWTs. Real users get real tokens by signing in (users.ts); this is for
 * what a real sign-in cannot give: API keys derived from a secret the test chose, and tokens that are
 * forged, expired, foreign or otherwise odd — to prove the server refuses them. Tokens are HS256,
 * signed with the deployment's JWT secret unless `secret` says otherwise.
 */

export interface TokenOptions {
  /** Seconds until `exp`, from now; negative for an already expired token. Default: one hour. */
  expiresIn?: number;
  /** Seconds since `iat` (default 0: issued now). */
  age?: number;
  /** Leave out `iat` and `exp` altogether (the claims may carry their own). */
  noTimes?: boolean;
  /** The JOSE header (default `{ alg: 'HS256', typ: 'JWT' }`). */
  header?: { alg: string; typ?: string; kid?: string };
}

const encode = (secret: string) => new TextEncoder().encode(secret);

/** A JWT with exactly these claims (plus `iat`/`exp` unless `noTimes`), signed with `secret`. */
export function signToken(
  secret: string,
  claims: Record<string, unknown>,
  options: TokenOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = new SignJWT(claims).setProtectedHeader(options.header ?? { alg: 'HS256', typ: 'JWT' });
  if (options.noTimes) return token.sign(encode(secret));
  return token
    .setIssuedAt(now - (options.age ?? 0))
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(encode(secret));
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned JWT (`alg: none`, empty signature) with exactly this header and these claims. */
export function unsignedToken(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'none', typ: 'JWT' },
): string {
  return `${base64url(header)}.${base64url(claims)}.`;
}

/** An API key in Supabase's format (role `anon` or `service_role`), as the server derives it. */
export function apiKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
  return signToken(secret, { role, iss: 'supabase' }, { expiresIn: 10 * 365 * 24 * 3600 });
}

/**
 * A member's access token as the auth service would issue it, without a sign-in behind it (no
 * session): for tests of the verifying side that must control `sub`, the claims or the expiry.
 */
export function userToken(
  secret: string,
  sub: string,
  options: TokenOptions & { claims?: Record<string, unknown> } = {},
): Promise<string> {
  return signToken(secret, { sub, role: 'authenticated', aud: 'authenticated', ...options.claims }, options);
}
