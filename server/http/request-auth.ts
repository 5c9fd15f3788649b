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
  /** The bearer token, or the API key when none was sent; empty when neither was. */
  token: string;
  /** Role of the `apikey` presented: which key the client holds; null when none was sent. */
  keyRole: 'anon' | 'service_role' | null;
}

export interface AuthenticateOptions {
  /**
   * Refuse a request without an `apikey` (realtime's sockets and broadcast). Otherwise, as PostgREST
   * and Storage behind the Supabase CLI: no key and no token is `anon`, a bearer token alone decides
   * the role (decision 108).
   */
  requireApiKey?: boolean;
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

/** A request with neither key nor token: the `anon` role, as PostgREST's `PGRST_DB_ANON_ROLE`. */
const ANONYMOUS: RequestAuth = Object.freeze({
  role: 'anon',
  claims: Object.freeze({ role: 'anon' }) as Claims,
  token: '',
  keyRole: null,
});

async function verifyToken(token: string, verifier: JwtVerifier): Promise<AuthResult> {
  let claims: Claims;
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
  return withRole(claims, token);
}

function withRole(claims: Claims, token: string): AuthResult {
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  if (!API_ROLES.has(role)) {
    return { ok: false, failure: { kind: 'unknown_role', message: `role "${role}" does not exist`, role } };
  }
  return { ok: true, auth: { role: role as ApiRole, claims, token, keyRole: null } };
}

/**
 * Resolves the caller. An `apikey` (header, or `apikey` query parameter for websockets), when sent,
 * must be one of the project's keys (anon or service role, legacy JWT or `sb_…` key, decision 179; an
 * empty or foreign one is refused); a
 * bearer token, when present, must verify and decides the role, else the key does. Without a key, a
 * bearer token alone decides, and with neither the caller is `anon` — unless `requireApiKey`.
 */
export async function authenticate(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
  verifier: JwtVerifier,
  options: AuthenticateOptions = {},
): Promise<AuthResult> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const apikey =
    single(request.headers.apikey) ?? (typeof query.apikey === 'string' ? query.apikey : undefined);
  if (options.requireApiKey && !apikey) {
    return { ok: false, failure: { kind: 'missing_apikey', message: 'No API key found in request' } };
  }
  if (apikey === undefined) {
    const bearer = bearerToken(request);
    return bearer === undefined ? { ok: true, auth: ANONYMOUS } : verifyToken(bearer, verifier);
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
  const result = token === apikey ? withRole(keyClaims, token) : await verifyToken(token, verifier);
  if (result.ok) result.auth.keyRole = keyClaims.role;
  return result;
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
