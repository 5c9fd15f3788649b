import type { FastifyInstance } from 'fastify';
import { type RouteDeps, serve } from '../http.ts';

/** DELETE /rest/v1/:name — delete the rows the filters match. */
export function deleteRows(app: FastifyInstance, deps: RouteDeps): void {
  app.delete('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
