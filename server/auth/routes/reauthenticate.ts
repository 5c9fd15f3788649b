import type { FastifyInstance } from 'fastify';
import { reauthenticate as sendNonce } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { callerOf, requestMeta } from '../http.ts';

/** GET /reauthenticate — mails a code that PUT /user accepts as `nonce` for a password change. */
export default function reauthenticate(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/reauthenticate', { config: { access: 'user' } }, async (request) =>
    sendNonce(deps, (await callerOf(deps, request)).user, requestMeta(request)),
  );
}
