import { type Claims, JwtError, type JwtVerifier } from '../http/jwt.ts';
import type { ApiRole } from '../http/request-auth.ts';
import { reasons } from './errors.ts';

/** Who a channel acts as: the verified claims of its access token, used for row-level security. */
export interface Identity {
  token: string;
  role: ApiRole;
  claims: Claims;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export type IdentityResult = { ok: true; identity: Identity } | { ok: false; reason: string };

const ROLES = new Set<string>(['anon', 'authenticated', 'service_role']);
const OPAQUE_KEY_LIFETIME = 10 * 365 * 24 * 3600;

function peekExp(token: string): number | undefined {
  try {
    const body = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof body.exp === 'number' ? body.exp : undefined;
  } catch {
    return undefined;
  }
}

function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) return false;
  try {
    JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString('utf8'));
    JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies a channel's access token the way Supabase Realtime does: a valid signature, `role` and
 * `exp` present and not expired; the role must be one of the project's API roles.
 */
export async function verifyIdentity(token: string, verifier: JwtVerifier): Promise<IdentityResult> {
  if (typeof token === 'string' && isOpaqueApiKey(token)) {
    // A new-format API key as the socket's key (decision 179): the role it stands for, without expiry
    // of its own (as the legacy keys' ten years).
    const role = verifier.apiKeyRole(token);
    if (!role) return { ok: false, reason: reasons.tokenSignature() };
    const exp = Math.floor(Date.now() / 1000) + OPAQUE_KEY_LIFETIME;
    return { ok: true, identity: { token, role, claims: { iss: 'supabase', role, exp } as Claims, exp } };
  }
  if (typeof token !== 'string' || !looksLikeJwt(token))
    return { ok: false, reason: reasons.tokenMalformed() };
  let claims: Claims;
  try {
    claims = await verifier.verify(token);
  } catch (error) {
    if (error instanceof JwtError && error.reason === 'expired') {
      const exp = peekExp(token) ?? Math.floor(Date.now() / 1000);
      return { ok: false, reason: reasons.tokenExpired(Math.max(0, Math.floor(Date.now() / 1000) - exp)) };
    }
    return { ok: false, reason: reasons.tokenSignature() };
  }
  if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, reason: reasons.tokenClaimsMissing() };
  }
  if (!ROLES.has(claims.role)) return { ok: false, reason: reasons.tokenRole(claims.role) };
  return { ok: true, identity: { token, role: claims.role as ApiRole, claims, exp: claims.exp } };
}

/** Supabase's new-style API keys (`sb_publishable_…`) are not JWTs; the socket's own key applies. */
export function isOpaqueApiKey(token: string): boolean {
  return token.startsWith('sb_');
}
