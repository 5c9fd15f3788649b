import type { FastifyInstance } from 'fastify';
import { type RouteDeps, serve } from '../http.ts';

/** GET|HEAD /rest/v1/:name — rows of a table or view: select, filters, embedding, order, paging, count. */
export function readRows(app: FastifyInstance, deps: RouteDeps): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/:name',
    exposeHeadRoute: false,
    handler: (request, reply) => serve(deps, request, reply, 'relation'),
  });
}
