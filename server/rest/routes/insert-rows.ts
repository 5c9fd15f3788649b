import type { FastifyInstance } from 'fastify';
import { serve } from '../http.ts';
import type { RestDeps } from '../rest.ts';

/** POST /rest/v1/:name — insert one row or many, or upsert (Prefer: resolution=...). */
export default function insertRows(app: FastifyInstance, deps: RestDeps): void {
  app.post('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
