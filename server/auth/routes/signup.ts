import type { FastifyInstance } from 'fastify';
import { signup as signupAccount } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, pkceFrom, redirectParam, requestMeta } from '../http.ts';

/** POST /signup — email and password; a session when sign-ups are autoconfirmed, else the user. */
export default function signup(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/signup', { config: { access: 'public' } }, async (request) => {
    const body = bodyOf(request);
    return signupAccount(
      deps,
      {
        email: body.string('email', 320),
        phone: body.string('phone', 64),
        password: body.string('password', 4096),
        data: body.object('data'),
        redirectTo: redirectParam(request, body),
        pkce: pkceFrom(body),
      },
      requestMeta(request),
    );
  });
}
