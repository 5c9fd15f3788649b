import type { FastifyInstance } from 'fastify';
import { serve } from '../http.ts';
import type { RestDeps } from '../rest.ts';

/** DELETE /rest/v1/:name — delete the rows the filters match. */
export default function deleteRows(app: FastifyInstance, deps: RestDeps): void {
  app.delete('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
