import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../http/request-auth.ts';
import { httpErrors } from '../errors.ts';
import type { Vsn } from '../protocol/serializer.ts';
import type { RealtimeDeps } from '../realtime.ts';

const VERSIONS = new Set<string>(['1.0.0', '2.0.0']);

interface Query {
  apikey?: string;
  vsn?: string;
}

/**
 * GET /realtime/v1/websocket: the Phoenix socket realtime-js connects to. The `apikey` query
 * parameter (the anon or service key) is required; `vsn` picks the wire format (Phoenix's default,
 * 1.0.0, when absent). Refusals happen before the upgrade, as plain HTTP errors.
 */
export default function websocket(app: FastifyInstance, { service }: RealtimeDeps): void {
  app.get<{ Querystring: Query }>(
    '/websocket',
    {
      websocket: true,
      preValidation: async (request: FastifyRequest<{ Querystring: Query }>, _reply: FastifyReply) => {
        const auth = await authenticate(request, service.jwt, { requireApiKey: true });
        if (!auth.ok) throw httpErrors.unauthorized(auth.failure.message);
        const vsn = request.query.vsn ?? '1.0.0';
        if (!VERSIONS.has(vsn)) throw httpErrors.badRequest(`Unsupported vsn "${vsn}": use 1.0.0 or 2.0.0`);
        if (!service.canAccept()) throw httpErrors.unavailable();
      },
    },
    (socket, request) => {
      const query = request.query as Query;
      const header = request.headers.apikey;
      const apikey = (Array.isArray(header) ? header[0] : header) ?? query.apikey ?? '';
      service.accept(socket, (query.vsn ?? '1.0.0') as Vsn, apikey);
    },
  );
}
