import type { FastifyInstance } from 'fastify';
import { serve } from '../http.ts';
import type { RestDeps } from '../rest.ts';

/**
 * GET|HEAD|POST /rest/v1/rpc/:name — call a function with named arguments (query string or JSON
 * body); other methods get PGRST101 from the pipeline.
 */
export default function callFunction(app: FastifyInstance, deps: RestDeps): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/rpc/:name',
    exposeHeadRoute: false,
    handler: (request, reply) => serve(deps, request, reply, 'rpc'),
  });
}
