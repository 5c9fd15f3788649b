import type { FastifyInstance } from 'fastify';
import { generateLink } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, redirectParam, requestMeta } from '../http.ts';

/** POST /admin/generate_link (service key) — the link and code a mail would carry, without sending. */
export default function adminGenerateLink(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/admin/generate_link', { config: { access: 'admin' } }, async (request) => {
    const body = bodyOf(request);
    return generateLink(
      deps,
      {
        type: body.string('type', 64),
        email: body.string('email', 320),
        newEmail: body.string('new_email', 320),
        password: body.string('password', 4096),
        data: body.object('data'),
        redirectTo: redirectParam(request, body),
      },
      requestMeta(request),
    );
  });
}
