import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';

/** GET /health — GoTrue's health answer (the server's own /health checks the database). */
export default function health(app: FastifyInstance, _deps: AuthDeps): void {
  app.get('/health', { config: { access: 'public' } }, async () => ({
    version: 'highgrade',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  }));
}
