import type { FastifyInstance } from 'fastify';
import { serve } from '../http.ts';
import type { RestDeps } from '../rest.ts';

/** PATCH /rest/v1/:name — update the rows the filters match. */
export default function updateRows(app: FastifyInstance, deps: RestDeps): void {
  app.patch('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
