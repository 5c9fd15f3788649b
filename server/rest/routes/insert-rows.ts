import type { FastifyInstance } from 'fastify';
import { type RouteDeps, serve } from '../http.ts';

/** POST /rest/v1/:name — insert one row or many, or upsert (Prefer: resolution=...). */
export function insertRows(app: FastifyInstance, deps: RouteDeps): void {
  app.post('/:name', (request, reply) => serve(deps, request, reply, 'relation'));
}
