import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type RequestAuth } from '../http/request-auth.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import { findUserAndSession, type SessionRow, type UserRow } from './db.ts';
import { authErrors } from './errors.ts';
import { Body, isCleanText, isUuid, queryString } from './input.ts';
import { type CodeChallenge, parseCodeChallenge } from './pkce.ts';
import { deviceCookie, deviceTokensOf } from './sign-in-throttle.ts';

/** Who may call a route: nobody needs a key (browser links), the API key, a user's token, the service key. */
export type Access = 'open' | 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** The verified caller once the gateway check passed (null on open routes). */
    gateway: RequestAuth | null;
  }
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const agent = request.headers['user-agent'];
  const userAgent = typeof agent === 'string' && isCleanText(agent) ? agent.slice(0, 512) : null;
  // An IPv6 zone index (fe80::1%eth0) is not part of the address PostgreSQL's inet stores.
  return {
    ip: request.ip.replace(/%.*$/, ''),
    userAgent,
    deviceTokens: deviceTokensOf(single(request.headers.cookie)),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Remembers the browser as a known device of the account it just signed in to (decision 095). */
export function rememberDevice(
  reply: FastifyReply,
  deps: AuthDeps,
  meta: RequestMeta,
  token: string | undefined,
): void {
  if (token === undefined) return;
  reply.header(
    'set-cookie',
    deviceCookie(token, meta.deviceTokens ?? [], deps.config.siteUrl.startsWith('https:')),
  );
}

export function bodyOf(request: FastifyRequest): Body {
  return new Body(request.body);
}

/** GoTrue's getRedirectTo: the `redirect_to` query parameter, else the body field. */
export function redirectParam(request: FastifyRequest, body?: Body): string | undefined {
  const fromQuery = queryString(request.query, 'redirect_to');
  if (fromQuery !== '') return fromQuery;
  const fromBody = body?.string('redirect_to', 2048) ?? '';
  return fromBody === '' ? undefined : fromBody;
}

export function pkceFrom(body: Body): CodeChallenge | undefined {
  return parseCodeChallenge(body.string('code_challenge', 256), body.string('code_challenge_method', 16));
}

export interface Caller {
  user: UserRow;
  session: SessionRow | undefined;
  sessionId: string | null;
  claims: Record<string, unknown>;
  token: string;
}

/**
 * The signed-in user behind a `user` route, as GoTrue's requireAuthentication: the bearer token's
 * subject must exist, and so must the session it names (signed out means signed out, even while the
 * access token has not expired).
 */
export async function callerOf(deps: AuthDeps, request: FastifyRequest): Promise<Caller> {
  const gateway = request.gateway;
  if (!gateway || bearerToken(request) === undefined) throw authErrors.noAuthorization();
  const claims = gateway.claims;
  if (typeof claims.sub !== 'string' || claims.sub === '')
    throw authErrors.badJwtClaim('invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw authErrors.badJwtClaim('invalid claim: sub claim must be a UUID');
  const rawSession = claims.session_id;
  let sessionId: string | null = null;
  if (
    rawSession !== undefined &&
    rawSession !== null &&
    rawSession !== '' &&
    rawSession !== '00000000-0000-0000-0000-000000000000'
  ) {
    if (typeof rawSession !== 'string' || !isUuid(rawSession)) {
      throw authErrors.badJwtClaim('invalid claim: session_id claim must be a UUID');
    }
    sessionId = rawSession.toLowerCase();
  }
  const { user, session } = await findUserAndSession(deps.app.db, claims.sub.toLowerCase(), sessionId);
  if (!user) throw authErrors.userFromJwtNotFound();
  if (sessionId !== null && !session) throw authErrors.sessionNotFound();
  return { user, session, sessionId, claims, token: gateway.token };
}

/**
 * MFA routes need the session itself (its assurance level), and refuse anonymous users as GoTrue's
 * requireNotAnonymous does (the token's `is_anonymous` claim).
 */
export async function sessionCallerOf(
  deps: AuthDeps,
  request: FastifyRequest,
): Promise<Caller & { session: SessionRow }> {
  const caller = await callerOf(deps, request);
  if (!caller.session) throw authErrors.sessionNotFound();
  if (caller.claims.is_anonymous === true) throw authErrors.anonymousNotAllowed();
  return caller as Caller & { session: SessionRow };
}

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** See Other, with the target as the Location and nothing else (tokens may be in the fragment). */
export function redirect(reply: FastifyReply, location: string, status = 303): FastifyReply {
  return reply.status(status).header('location', location).header('referrer-policy', 'no-referrer').send();
}
