import type { FastifyInstance } from 'fastify';
import { httpErrors } from '../errors.ts';
import { broadcastCaller, writableTopics } from '../http.ts';
import type { RealtimeDeps } from '../realtime.ts';

interface Body {
  messages: { topic: string; event: string; payload: Record<string, unknown>; private?: boolean }[];
}

const bodySchema = {
  type: 'object',
  required: ['messages'],
  additionalProperties: false,
  properties: {
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['topic', 'event', 'payload'],
        properties: {
          topic: { type: 'string', minLength: 1, maxLength: 246 },
          event: { type: 'string', minLength: 1, maxLength: 255 },
          payload: { type: 'object' },
          private: { type: 'boolean' },
        },
      },
    },
  },
} as const;

/**
 * POST /realtime/v1/api/broadcast: `{messages: [{topic, event, payload, private?}]}` to the channels
 * of those topics, on every server process (realtime-js' `send()` falls back to it when a channel is
 * not joined). 202 with an empty body, as Supabase answers. A message to a private topic is sent
 * when the caller may write there (the service key, or its token's INSERT policies on
 * realtime.messages); otherwise it is dropped, still with 202, as Supabase does (decision 147).
 */
export default function broadcast(app: FastifyInstance, { service }: RealtimeDeps): void {
  app.post<{ Body: Body }>(
    '/api/broadcast',
    {
      schema: { body: bodySchema },
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError) throw httpErrors.invalidBody(request.validationError.message);
      const { messages } = request.body;
      const auth = await broadcastCaller(request, service.jwt, service, messages.length);
      const limit = service.config.maxPayloadBytes;
      const prepared = messages.map((message) => {
        const json = JSON.stringify({ type: 'broadcast', event: message.event, payload: message.payload });
        if (Buffer.byteLength(json) > limit) throw httpErrors.payloadTooLarge(limit);
        return { topic: message.topic, isPrivate: message.private === true, json };
      });
      const writable = await writableTopics(
        service,
        auth,
        prepared.filter((message) => message.isPrivate).map((message) => message.topic),
      );
      for (const message of prepared) {
        if (message.isPrivate && !writable.has(message.topic)) continue;
        service.broadcastJson(
          `${message.isPrivate ? 'private' : 'public'}:${message.topic}`,
          message.json,
          null,
        );
      }
      return reply.status(202).send();
    },
  );
}
