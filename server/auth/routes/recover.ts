import type { FastifyInstance } from 'fastify';
import { recover as recoverAccount } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, pkceFrom, redirectParam, requestMeta } from '../http.ts';

/** POST /recover — a password-reset mail; `{}` whether or not the address has an account. */
export default function recover(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/recover', { config: { access: 'public' } }, async (request) => {
    const body = bodyOf(request);
    return recoverAccount(
      deps,
      { email: body.string('email', 320), redirectTo: redirectParam(request, body), pkce: pkceFrom(body) },
      requestMeta(request),
    );
  });
}
