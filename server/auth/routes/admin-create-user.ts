import type { FastifyInstance } from 'fastify';
import { adminUserInput, createUser } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, requestMeta } from '../http.ts';

/** POST /admin/users (service key) — creates a user, confirmed when `email_confirm` is true. */
export default function adminCreateUser(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/admin/users', { config: { access: 'admin' } }, async (request) =>
    createUser(deps, adminUserInput(bodyOf(request)), requestMeta(request)),
  );
}
