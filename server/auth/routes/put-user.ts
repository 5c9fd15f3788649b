import type { FastifyInstance } from 'fastify';
import { updateOwnUser } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, callerOf, pkceFrom, redirectParam, requestMeta } from '../http.ts';

/** PUT /user — metadata, password, or email (confirmed from both addresses unless autoconfirmed). */
export default function putUser(app: FastifyInstance, deps: AuthDeps): void {
  app.put('/user', { config: { access: 'user' } }, async (request) => {
    const body = bodyOf(request);
    const caller = await callerOf(deps, request);
    return updateOwnUser(
      deps,
      {
        user: caller.user,
        sessionId: caller.sessionId,
        sessionCreatedAt: caller.session?.created_at ?? null,
        sessionAal: caller.session?.aal ?? null,
      },
      {
        email: body.string('email', 320),
        phone: body.string('phone', 64),
        password: body.has('password') ? body.string('password', 4096) : undefined,
        nonce: body.string('nonce', 64),
        data: body.object('data'),
        redirectTo: redirectParam(request, body),
        pkce: pkceFrom(body),
      },
      requestMeta(request),
    );
  });
}
