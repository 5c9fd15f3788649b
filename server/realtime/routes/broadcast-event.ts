import type { FastifyInstance } from 'fastify';
import { httpErrors } from '../errors.ts';
import { broadcastCaller, writableTopics } from '../http.ts';
import type { RealtimeDeps } from '../realtime.ts';

interface Params {
  topic: string;
  event: string;
}

/**
 * POST /realtime/v1/api/broadcast/:topic/events/:event (realtime-js' `httpSend()`): one message
 * whose body is the payload, JSON or `application/octet-stream` (binary, delivered to 2.0.0 clients
 * as a binary broadcast). `?private=true` addresses the private channel: sent when the caller may write there (see
 * broadcast.ts), dropped otherwise.
 */
export default function broadcastEvent(app: FastifyInstance, { service }: RealtimeDeps): void {
  app.post<{ Params: Params; Querystring: { private?: string } }>(
    '/api/broadcast/:topic/events/:event',
    { bodyLimit: service.config.maxPayloadBytes + 1024 },
    async (request, reply) => {
      const { topic, event } = request.params;
      if (topic === '' || Buffer.byteLength(topic) > 246)
        throw httpErrors.invalidBody('topic must have 1 to 246 bytes');
      if (event === '' || Buffer.byteLength(event) > 255)
        throw httpErrors.invalidBody('event must have 1 to 255 bytes');
      const isPrivate = request.query.private === 'true';
      const auth = await broadcastCaller(request, service.jwt, service, 1);
      const limit = service.config.maxPayloadBytes;
      const body: unknown = request.body;
      let payload: Buffer;
      let encoding: 'json' | 'binary';
      if (Buffer.isBuffer(body)) {
        payload = body;
        encoding = 'binary';
      } else if (body !== undefined) {
        payload = Buffer.from(JSON.stringify(body));
        encoding = 'json';
      } else {
        throw httpErrors.invalidBody('A payload is required');
      }
      if (payload.length > limit) throw httpErrors.payloadTooLarge(limit);
      if (isPrivate && !(await writableTopics(service, auth, [topic])).has(topic)) {
        return reply.status(202).send();
      }
      service.broadcastUser(
        `${isPrivate ? 'private' : 'public'}:${topic}`,
        event,
        encoding,
        payload,
        null,
        null,
      );
      return reply.status(202).send();
    },
  );
}
