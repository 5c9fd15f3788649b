import type { FastifyInstance } from 'fastify';
import { type RouteDeps, serve } from '../http.ts';

/**
 * GET|HEAD|POST /rest/v1/rpc/:name — call a function with named arguments (query string or JSON
 * body); other methods get PGRST101 from the pipeline.
 */
export function callFunction(app: FastifyInstance, deps: RouteDeps): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/rpc/:name',
    exposeHeadRoute: false,
    handler: (request, reply) => serve(deps, request, reply, 'rpc'),
  });
}
