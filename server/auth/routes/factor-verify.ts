import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, requestMeta, sessionCallerOf } from '../http.ts';
import { verifyFactor } from '../mfa.ts';

/**
 * POST /factors/{id}/verify — answers a challenge (a TOTP `code`, or for WebAuthn
 * `webauthn: {type: create|request, credential_response}`); a session at aal2 on success.
 */
export default function verifyFactorRoute(app: FastifyInstance, deps: AuthDeps): void {
  app.post<{ Params: { factorId: string } }>(
    '/factors/:factorId/verify',
    { config: { access: 'user' } },
    async (request) => {
      const body = bodyOf(request);
      const caller = await sessionCallerOf(deps, request);
      // A credential response is a few hundred bytes; 64 KiB leaves room for long attestations.
      const webauthn = body.object('webauthn', 65536);
      return verifyFactor(
        deps,
        caller,
        request.params.factorId,
        {
          challengeId: body.string('challenge_id', 64),
          code: body.string('code', 16),
          webauthn: webauthn
            ? { type: String(webauthn.type ?? ''), response: webauthn.credential_response }
            : undefined,
        },
        requestMeta(request),
      );
    },
  );
}
