import type { FastifyRequest } from 'fastify';
import type { JwtVerifier } from '../http/jwt.ts';
import { authenticate, type RequestAuth } from '../http/request-auth.ts';
import { httpErrors } from './errors.ts';
import type { RealtimeService } from './realtime.ts';

/**
 * The caller of the HTTP broadcast API: the anon or service key (plus, optionally, a user's token),
 * within the per-address allowance of messages per second.
 */
export async function broadcastCaller(
  request: FastifyRequest,
  jwt: JwtVerifier,
  service: RealtimeService,
  messages: number,
): Promise<RequestAuth> {
  const perSecond = service.config.maxEventsPerSecond;
  const result = await authenticate(request, jwt, { requireApiKey: true });
  if (!result.ok) throw httpErrors.unauthorized(result.failure.message);
  if (messages > perSecond) {
    throw httpErrors.rateLimited('Too many messages to broadcast, please reduce the batch size');
  }
  // Counted in the database, so the limit holds for the whole deployment, not per process.
  if (!(await service.rdb.hitBroadcastLimit(request.ip, messages, perSecond))) {
    throw httpErrors.rateLimited('You have exceeded your rate limit');
  }
  return result.auth;
}

/**
 * Of the private topics a caller sends to over HTTP, those it may write to: all for the service
 * key; otherwise those whose INSERT policies on realtime.messages let its token's identity write a
 * broadcast (Supabase's BatchBroadcast). A topic whose check fails is not writable.
 */
export async function writableTopics(
  service: RealtimeService,
  auth: RequestAuth,
  topics: string[],
): Promise<Set<string>> {
  const unique = [...new Set(topics)];
  if (auth.role === 'service_role') return new Set(unique);
  const writable = new Set<string>();
  for (const topic of unique) {
    try {
      const allowed = await service.rdb.authorize(topic, auth.role, auth.claims, true, ['broadcast']);
      if (allowed.has('broadcast')) writable.add(topic);
    } catch (error) {
      service.log.warn({ err: error, topic }, 'realtime: checking an HTTP broadcast failed');
    }
  }
  return writable;
}
