import type { FastifyInstance } from 'fastify';
import { listFactors } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';

/** GET /admin/users/{id}/factors (service key) */
export default function adminListFactors(app: FastifyInstance, deps: AuthDeps): void {
  app.get<{ Params: { userId: string } }>(
    '/admin/users/:userId/factors',
    { config: { access: 'admin' } },
    async (request) => listFactors(deps, request.params.userId),
  );
}
