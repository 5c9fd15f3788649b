import type { FastifyInstance } from 'fastify';
import { serve } from '../http.ts';
import type { RestDeps } from '../rest.ts';

/** GET|HEAD /rest/v1/:name — rows of a table or view: select, filters, embedding, order, paging, count. */
export default function readRows(app: FastifyInstance, deps: RestDeps): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/:name',
    exposeHeadRoute: false,
    handler: (request, reply) => serve(deps, request, reply, 'relation'),
  });
}
