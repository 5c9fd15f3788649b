import type { FastifyInstance } from 'fastify';
import { deleteFactorById } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { requestMeta } from '../http.ts';

/** DELETE /admin/users/{id}/factors/{factor_id} (service key) */
export default function adminDeleteFactor(app: FastifyInstance, deps: AuthDeps): void {
  app.delete<{ Params: { userId: string; factorId: string } }>(
    '/admin/users/:userId/factors/:factorId',
    { config: { access: 'admin' } },
    async (request) =>
      deleteFactorById(deps, request.params.userId, request.params.factorId, requestMeta(request)),
  );
}
