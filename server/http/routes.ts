import type { FastifyInstance } from 'fastify';

/**
 * What every endpoint file (`server/<service>/routes/<name>.ts`) default-exports (decision 088): it
 * registers its method(s) and URL on the service's Fastify instance, reads the request, calls the
 * service's domain once and writes the answer. Each service lists its routes in `routes/index.ts`.
 */
export type Route<Deps> = (app: FastifyInstance, deps: Deps) => void;
