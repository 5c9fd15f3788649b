import type { FastifyInstance } from 'fastify';
import { resend as resendMail } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, pkceFrom, redirectParam, requestMeta } from '../http.ts';

/** POST /resend — the sign-up confirmation or email-change mails again; the same answer either way. */
export default function resend(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/resend', { config: { access: 'public' } }, async (request) => {
    const body = bodyOf(request);
    return resendMail(
      deps,
      {
        email: body.string('email', 320),
        phone: body.string('phone', 64),
        type: body.string('type', 32),
        redirectTo: redirectParam(request, body),
        pkce: pkceFrom(body),
      },
      requestMeta(request),
    );
  });
}
