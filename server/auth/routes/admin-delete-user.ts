import type { FastifyInstance } from 'fastify';
import { deleteUserById } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, requestMeta } from '../http.ts';

/** DELETE /admin/users/{id} (service key) — `should_soft_delete` keeps the row, without credentials. */
export default function adminDeleteUser(app: FastifyInstance, deps: AuthDeps): void {
  app.delete<{ Params: { userId: string } }>(
    '/admin/users/:userId',
    { config: { access: 'admin' } },
    async (request) => {
      const soft = bodyOf(request).bool('should_soft_delete') === true;
      return deleteUserById(deps, request.params.userId, soft, requestMeta(request));
    },
  );
}
