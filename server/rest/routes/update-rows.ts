import type { FastifyInstance } from 'fastify';
import { type RouteDeps, serve } from '../http.ts';

/** PATCH /rest/v1/:name — update the rows the filters match. */
export function updateRows(app: FastifyInstance, deps: RouteDeps): void {
  app.patch('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
