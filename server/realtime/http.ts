import type { FastifyRequest } from 'fastify';
import type { JwtVerifier } from '../http/jwt.ts';
import { authenticate, type RequestAuth } from '../http/request-auth.ts';
import { httpErrors } from './errors.ts';
import type { KeyedBuckets } from './rate-limit.ts';

/**
 * The caller of the HTTP broadcast API: the anon or service key (plus, optionally, a user's token),
 * within the per-address allowance of messages per second.
 */
export async function broadcastCaller(
  request: FastifyRequest,
  jwt: JwtVerifier,
  buckets: KeyedBuckets,
  messages: number,
  perSecond: number,
): Promise<RequestAuth> {
  const result = await authenticate(request, jwt, { requireApiKey: true });
  if (!result.ok) throw httpErrors.unauthorized(result.failure.message);
  if (messages > perSecond) {
    throw httpErrors.rateLimited('Too many messages to broadcast, please reduce the batch size');
  }
  if (!buckets.take(request.ip, messages)) throw httpErrors.rateLimited('You have exceeded your rate limit');
  return result.auth;
}
