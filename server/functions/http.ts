import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { RequestScope } from '../db/driver.ts';
import { JwtError } from '../http/jwt.ts';
import { authenticate, bearerToken, type RequestAuth, scopeFor } from '../http/request-auth.ts';
import { findAccountAndSession, isAdmin } from './db.ts';
import { authFailureError, FunctionErrors } from './errors.ts';

/** The signed-in user a function acts for. */
export interface FunctionCaller {
  userId: string;
  /** The database scope of the request: role authenticated with the token's claims. */
  scope: RequestScope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route acts for a signed-in user: the caller is resolved before the body is read. */
    functionUser?: boolean;
    /** The route is for operators: an admin's access token or the service key (news refresh). */
    functionOperator?: boolean;
  }
  interface FastifyRequest {
    functionCaller?: FunctionCaller;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Who is calling (decision 070). With an `apikey` (supabase-js sends one), the platform's check
 * applies: the key must be one of the project's. Without one (the web app's plain fetch, product
 * §server-functions), the bearer token alone decides, as on Supabase, whose functions gateway needs no key.
 * Either way the token must be a user's access token (role authenticated, a user id as subject) whose account
 * — and session, when it names one — still exists.
 */
export async function resolveCaller(request: FastifyRequest, ctx: AppContext): Promise<FunctionCaller> {
  let auth: RequestAuth;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (single(request.headers.apikey) !== undefined || typeof query.apikey === 'string') {
    const result = await authenticate(request, ctx.jwt);
    if (!result.ok) throw authFailureError(result.failure);
    auth = result.auth;
    if (bearerToken(request) === undefined) throw FunctionErrors.userTokenRequired();
  } else {
    const token = bearerToken(request);
    if (token === undefined) throw FunctionErrors.missingAuthorization();
    try {
      const claims = await ctx.jwt.verify(token);
      auth = { role: 'authenticated', claims, token, keyRole: 'anon' };
      if (claims.role !== 'authenticated') throw FunctionErrors.userTokenRequired();
    } catch (error) {
      if (error instanceof JwtError) {
        throw error.reason === 'expired' ? FunctionErrors.expiredToken() : FunctionErrors.invalidToken();
      }
      throw error;
    }
  }
  const { claims } = auth;
  if (auth.role !== 'authenticated') throw FunctionErrors.userTokenRequired();
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) throw FunctionErrors.userTokenRequired();
  const userId = claims.sub.toLowerCase();
  const rawSession = claims.session_id;
  let sessionId: string | null = null;
  if (rawSession !== undefined && rawSession !== null && rawSession !== '' && rawSession !== NIL_UUID) {
    if (typeof rawSession !== 'string' || !UUID.test(rawSession)) throw FunctionErrors.invalidToken();
    sessionId = rawSession.toLowerCase();
  }
  const found = await findAccountAndSession(ctx.db, userId, sessionId);
  if (!found.account) throw FunctionErrors.accountNotFound();
  if (sessionId !== null && !found.session) throw FunctionErrors.sessionEnded();
  return { userId, scope: scopeFor(request, auth) };
}

/**
 * An operator: the service key (role service_role) as bearer token, or a signed-in admin's access
 * token. Anyone else: 401 without valid credentials, 403 with a member's.
 */
export async function resolveOperator(request: FastifyRequest, ctx: AppContext): Promise<void> {
  const token = bearerToken(request);
  if (token === undefined) throw FunctionErrors.missingAuthorization();
  let role: unknown;
  try {
    role = (await ctx.jwt.verify(token)).role;
  } catch (error) {
    if (error instanceof JwtError) {
      throw error.reason === 'expired' ? FunctionErrors.expiredToken() : FunctionErrors.invalidToken();
    }
    throw error;
  }
  if (role === 'service_role') return;
  if (role !== 'authenticated') throw FunctionErrors.operatorRequired();
  const caller = await resolveCaller(request, ctx);
  if (!(await isAdmin(ctx.db, caller.userId))) throw FunctionErrors.adminRequired();
}

/** Resolves the caller of `functionUser` routes first thing, so no body is read for a stranger. */
export function requireUsers(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('functionCaller', undefined);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    if (request.routeOptions.config.functionOperator) return resolveOperator(request, ctx);
    if (!request.routeOptions.config.functionUser) return;
    request.functionCaller = await resolveCaller(request, ctx);
  });
}

export function callerOf(request: FastifyRequest): FunctionCaller {
  if (!request.functionCaller) throw new Error(`no caller resolved for ${request.method} ${request.url}`);
  return request.functionCaller;
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * 405 for every method a function does not take (OPTIONS stays with CORS preflight), before any
 * credential check: the method is wrong whoever asks.
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, allowed: (typeof ALL_METHODS)[number]) {
  app.route({
    method: ALL_METHODS.filter((method) => method !== allowed),
    url,
    handler: async (request) => {
      throw FunctionErrors.methodNotAllowed(request.method, allowed);
    },
  });
}

/** Personal data: never cached by browsers or proxies. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}
