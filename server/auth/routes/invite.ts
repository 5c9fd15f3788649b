import type { FastifyInstance } from 'fastify';
import { invite as inviteUser } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, redirectParam, requestMeta } from '../http.ts';

/** POST /invite (service key) — creates the user and mails an invitation link. */
export default function invite(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/invite', { config: { access: 'admin' } }, async (request) => {
    const body = bodyOf(request);
    return inviteUser(
      deps,
      {
        email: body.string('email', 320),
        data: body.object('data'),
        redirectTo: redirectParam(request, body),
      },
      requestMeta(request),
    );
  });
}
