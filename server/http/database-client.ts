import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RequestClient, runForClient } from '../db/clients.ts';

declare module 'fastify' {
  interface FastifyRequest {
    databaseClient?: RequestClient;
  }
}

/**
 * Runs each request's hooks and handler as its client's work (server/db/clients.ts): the database
 * then bounds how long the request waits for a connection and how many it holds at once. Entered
 * on arrival, and again before validation, since reading the body continues outside it.
 */
export function registerDatabaseClient(app: FastifyInstance): void {
  app.decorateRequest('databaseClient', undefined);
  const enter = (request: FastifyRequest, done: () => void) => {
    request.databaseClient ??= { address: request.ip };
    runForClient(request.databaseClient, done);
  };
  app.addHook('onRequest', (request, _reply, done) => enter(request, done));
  app.addHook('preValidation', (request, _reply, done) => enter(request, done));
}
