import type { FastifyInstance } from 'fastify';
import { adminUserInput, updateUserById } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, requestMeta } from '../http.ts';

/** PUT /admin/users/{id} (service key) — email, password, metadata, role, ban_duration. */
export default function adminUpdateUser(app: FastifyInstance, deps: AuthDeps): void {
  app.put<{ Params: { userId: string } }>(
    '/admin/users/:userId',
    { config: { access: 'admin' } },
    async (request) =>
      updateUserById(deps, request.params.userId, adminUserInput(bodyOf(request)), requestMeta(request)),
  );
}
