import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, callerOf, requestMeta, sessionCallerOf } from '../http.ts';
import {
  authenticationOptions,
  authenticationVerify,
  listPasskeys,
  registrationOptions,
  registrationVerify,
  removePasskey,
  requirePasskeys,
  updatePasskey,
} from '../passkeys.ts';

/**
 * /passkeys — GoTrue's passkey endpoints (decision 149), all 404 `passkey_disabled` unless
 * PASSKEY_ENABLED: sign-in options and verify (open), registration options and verify (a signed-in,
 * non-anonymous user), the user's list, rename and delete.
 */
export default function passkeys(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/passkeys/authentication/options', { config: { access: 'public' } }, async (request) => {
    requirePasskeys(deps);
    return authenticationOptions(deps, requestMeta(request));
  });

  app.post('/passkeys/authentication/verify', { config: { access: 'public' } }, async (request) => {
    requirePasskeys(deps);
    const body = bodyOf(request);
    return authenticationVerify(
      deps,
      { challengeId: body.string('challenge_id', 64), credential: body.raw('credential') },
      requestMeta(request),
    );
  });

  app.post('/passkeys/registration/options', { config: { access: 'user' } }, async (request) => {
    requirePasskeys(deps);
    return registrationOptions(deps, await sessionCallerOf(deps, request));
  });

  app.post('/passkeys/registration/verify', { config: { access: 'user' } }, async (request) => {
    requirePasskeys(deps);
    const body = bodyOf(request);
    const caller = await sessionCallerOf(deps, request);
    return registrationVerify(
      deps,
      caller,
      { challengeId: body.string('challenge_id', 64), credential: body.raw('credential') },
      requestMeta(request),
    );
  });

  app.get('/passkeys', { config: { access: 'user' } }, async (request) => {
    requirePasskeys(deps);
    return listPasskeys(deps, (await callerOf(deps, request)).user);
  });

  app.patch<{ Params: { passkeyId: string } }>(
    '/passkeys/:passkeyId',
    { config: { access: 'user' } },
    async (request) => {
      requirePasskeys(deps);
      const body = bodyOf(request);
      const caller = await callerOf(deps, request);
      return updatePasskey(
        deps,
        caller.user,
        request.params.passkeyId,
        body.string('friendly_name', 1024),
        requestMeta(request),
      );
    },
  );

  app.delete<{ Params: { passkeyId: string } }>(
    '/passkeys/:passkeyId',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePasskeys(deps);
      const caller = await callerOf(deps, request);
      await removePasskey(deps, caller, request.params.passkeyId, requestMeta(request));
      return reply.status(204).send();
    },
  );
}
