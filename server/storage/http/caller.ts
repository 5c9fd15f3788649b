import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { authenticate, scopeFor } from '../../http/request-auth.ts';
import { authFailureError } from '../errors.ts';
import type { Caller } from '../storage.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes anyone may call without credentials (public and signed URLs): no caller is resolved. */
    storagePublic?: boolean;
  }
  interface FastifyRequest {
    storageCaller?: Caller;
  }
}

/**
 * Establishes the caller of every request before its body is validated or read — except on routes
 * marked `storagePublic` — so a request without valid credentials is refused first, whatever else is
 * wrong with it: the apikey and bearer token as the platform verifies them, the database scope they
 * run in, and their user id as the owner of what they create.
 */
export function requireCallers(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('storageCaller', undefined);
  app.addHook('preValidation', async (request) => {
    // Unknown paths answer their JSON 404 whoever asks.
    if (request.is404 || request.routeOptions.config.storagePublic) return;
    const result = await authenticate(request, ctx.jwt);
    if (!result.ok) throw authFailureError(result.failure);
    const { auth } = result;
    request.storageCaller = {
      scope: scopeFor(request, auth),
      owner: typeof auth.claims.sub === 'string' && auth.role !== 'anon' ? auth.claims.sub : undefined,
    };
  });
}

/** The caller the preValidation hook established. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.storageCaller) throw new Error(`no caller resolved for ${request.method} ${request.url}`);
  return request.storageCaller;
}

/** The object name of a `/:bucketName/*` route. */
export function objectParams(request: FastifyRequest): { bucketName: string; name: string } {
  const params = request.params as { bucketName?: string; '*'?: string };
  return { bucketName: params.bucketName ?? '', name: params['*'] ?? '' };
}
