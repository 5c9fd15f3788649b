import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, scopeFor } from '../http/request-auth.ts';
import { restErrors } from './errors.ts';
import type { HttpInput } from './request.ts';
import type { RestResponse } from './response.ts';
import type { RestDeps } from './rest.ts';

/*
 * The thin HTTP edge every route shares: who is calling (API key, bearer token → role and claims),
 * the raw request as the pipeline reads it, and the answer written back.
 */

function rawQuery(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? '' : url.slice(index + 1);
}

export function send(reply: FastifyReply, response: RestResponse): FastifyReply {
  reply.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}

/** Handles one data API request for a relation (`/name`) or a function (`/rpc/name`). */
export async function serve(
  deps: RestDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  route: 'relation' | 'rpc',
): Promise<FastifyReply> {
  const auth = await authenticate(request, deps.ctx.jwt);
  if (!auth.ok) throw restErrors.authFailure(auth.failure);
  const scope = scopeFor(request, auth.auth);
  const name = (request.params as { name: string }).name;
  const input: HttpInput = {
    method: request.method,
    route,
    name,
    query: rawQuery(request.url),
    headers: request.headers,
    // An application/octet-stream body is read as bytes (plugin.ts) and goes on as hex digits, which
    // the call decodes back into the bytes (a function's single unnamed bytea parameter, query.ts).
    body:
      typeof request.body === 'string'
        ? request.body
        : Buffer.isBuffer(request.body)
          ? request.body.toString('hex')
          : undefined,
  };
  return send(reply, await deps.service.handle(input, scope));
}
