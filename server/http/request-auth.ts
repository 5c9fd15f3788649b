import type { FastifyRequest } from 'fastify';
import type { RequestScope } from '../db/driver.ts';
import { type Claims, JwtError, type JwtVerifier } from './jwt.ts';

export type ApiRole = RequestScope['role'];
const API_ROLES = new Set<string>(['anon', 'authenticated', 'service_role']);

/** Who made a request, as the API gateway and PostgREST of a Supabase project establish it. */
export interface RequestAuth {
  /** The role the request runs as in the database. */
  role: ApiRole;
  /** Verified claims of the bearer token (or of the API key when no bearer token was sent). */
  claims: Claims;
  /** The bearer token, or the API key when none was sent. */
  token: string;
  /** Role of the `apikey` presented: which key the client holds. */
  keyRole: 'anon' | 'service_role';
}

export type AuthFailure =
  | { kind: 'missing_apikey'; message: string }
  | { kind: 'invalid_apikey'; message: string }
  | { kind: 'jwt_expired'; message: string }
  | { kind: 'jwt_invalid'; message: string }
  | { kind: 'unknown_role'; message: string; role: string };

export type AuthResult = { ok: true; auth: RequestAuth } | { ok: false; failure: AuthFailure };

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = single(request.headers.authorization);
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Resolves the caller: an `apikey` (header, or `apikey` query parameter for websockets) must be one
 * of the project's keys; a bearer token, when present, decides the role, else the key does.
 */
export async function authenticate(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
  verifier: JwtVerifier,
): Promise<AuthResult> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const apikey =
    single(request.headers.apikey) ?? (typeof query.apikey === 'string' ? query.apikey : undefined);
  if (!apikey) {
    return { ok: false, failure: { kind: 'missing_apikey', message: 'No API key found in request' } };
  }
  let keyClaims: Claims;
  try {
    keyClaims = await verifier.verify(apikey);
  } catch {
    return { ok: false, failure: { kind: 'invalid_apikey', message: 'Invalid API key' } };
  }
  if (keyClaims.role !== 'anon' && keyClaims.role !== 'service_role') {
    return { ok: false, failure: { kind: 'invalid_apikey', message: 'Invalid API key' } };
  }

  const token = bearerToken(request) ?? apikey;
  let claims = keyClaims;
  if (token !== apikey) {
    try {
      claims = await verifier.verify(token);
    } catch (error) {
      const expired = error instanceof JwtError && error.reason === 'expired';
      return {
        ok: false,
        failure: expired
          ? { kind: 'jwt_expired', message: 'JWT expired' }
          : { kind: 'jwt_invalid', message: (error as Error).message || 'Invalid JWT' },
      };
    }
  }
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  if (!API_ROLES.has(role)) {
    return { ok: false, failure: { kind: 'unknown_role', message: `role "${role}" does not exist`, role } };
  }
  return { ok: true, auth: { role: role as ApiRole, claims, token, keyRole: keyClaims.role } };
}

/** The per-request database scope for an authenticated request (PostgREST's pre-request settings). */
export function scopeFor(request: FastifyRequest, auth: RequestAuth): RequestScope {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' || name === 'apikey' || name === 'cookie' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // Policies and rate limits read the client address from here, as on Supabase. It is the address
  // Fastify established (honouring TRUST_PROXY), never a header the client could forge.
  headers['x-forwarded-for'] = request.ip;
  headers['x-real-ip'] = request.ip;
  return {
    role: auth.role,
    claims: auth.claims,
    headers,
    method: request.method,
    path: request.url.split('?')[0] ?? '',
  };
}
