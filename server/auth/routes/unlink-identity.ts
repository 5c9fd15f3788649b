import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../context.ts';
import { audit } from '../context.ts';
import { deleteIdentity, findUserById, syncProviders } from '../db.ts';
import { authErrors } from '../errors.ts';
import { callerOf, requestMeta } from '../http.ts';
import { isUuid } from '../input.ts';

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
      const meta = requestMeta(request);
      await deps.app.db.transaction(async (tx) => {
        const user = await findUserById(tx, caller.user.id, true);
        const identity = user?.identities.find(
          (candidate) => candidate.identity_id === identityId.toLowerCase(),
        );
        if (!user || !identity) throw authErrors.identityNotFound();
        if (user.identities.length <= 1) throw authErrors.singleIdentity();
        await deleteIdentity(tx, user.id, identity.identity_id);
        await syncProviders(tx, user.id);
        await audit(tx, meta, user, 'identity_unlinked', { provider: identity.provider });
      });
      return {};
    },
  );
}
