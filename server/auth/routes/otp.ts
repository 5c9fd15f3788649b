import type { FastifyInstance } from 'fastify';
import { sendOtp } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, pkceFrom, redirectParam, requestMeta } from '../http.ts';

/** POST /otp — a magic link and code by mail (a confirmation mail for a new or unconfirmed account). */
export default function otp(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/otp', { config: { access: 'public' } }, async (request) => {
    const body = bodyOf(request);
    return sendOtp(
      deps,
      {
        email: body.string('email', 320),
        phone: body.string('phone', 64),
        createUser: body.bool('create_user') ?? true,
        data: body.object('data'),
        redirectTo: redirectParam(request, body),
        pkce: pkceFrom(body),
      },
      requestMeta(request),
    );
  });
}
