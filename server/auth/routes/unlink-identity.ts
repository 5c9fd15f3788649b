import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { callerOf, requestMeta } from '../http.ts';
import { isUuid } from '../input.ts';
import { unlinkIdentity as unlink } from '../social.ts';

/** DELETE /user/identities/{identity_id} — unlinks one of the user's identities, never the last. */
export default function unlinkIdentity(app: FastifyInstance, deps: AuthDeps): void {
  app.delete<{ Params: { identityId: string } }>(
    '/user/identities/:identityId',
    { config: { access: 'user' } },
    async (request) => {
      if (!deps.config.auth.manualLinking) throw authErrors.manualLinkingDisabled();
      const caller = await callerOf(deps, request);
      const identityId = request.params.identityId;
      if (!isUuid(identityId)) throw authErrors.identityNotFound();
      await unlink(deps, caller.user.id, identityId, requestMeta(request));
      return {};
    },
  );
}
