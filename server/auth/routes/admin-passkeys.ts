import type { FastifyInstance } from 'fastify';
import { deletePasskeyOfUser, listPasskeysOfUser } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { requestMeta } from '../http.ts';

/**
 * GET /admin/users/{id}/passkeys and DELETE /admin/users/{id}/passkeys/{passkey_id} (service key;
 * decision 149). As GoTrue's, they answer whatever PASSKEY_ENABLED says: an operator can always see
 * and remove a member's passkeys.
 */
export default function adminPasskeys(app: FastifyInstance, deps: AuthDeps): void {
  app.get<{ Params: { userId: string } }>(
    '/admin/users/:userId/passkeys',
    { config: { access: 'admin' } },
    async (request) => listPasskeysOfUser(deps, request.params.userId),
  );
  app.delete<{ Params: { userId: string; passkeyId: string } }>(
    '/admin/users/:userId/passkeys/:passkeyId',
    { config: { access: 'admin' } },
    async (request, reply) => {
      await deletePasskeyOfUser(deps, request.params.userId, request.params.passkeyId, requestMeta(request));
      return reply.status(204).send();
    },
  );
}
