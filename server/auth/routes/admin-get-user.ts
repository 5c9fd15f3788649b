import type { FastifyInstance } from 'fastify';
import { getUser } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';

/** GET /admin/users/{id} (service key) */
export default function adminGetUser(app: FastifyInstance, deps: AuthDeps): void {
  app.get<{ Params: { userId: string } }>(
    '/admin/users/:userId',
    { config: { access: 'admin' } },
    async (request) => getUser(deps, request.params.userId),
  );
}
