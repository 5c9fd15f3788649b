import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { callerOf } from '../http.ts';
import { userJson } from '../serialize.ts';

/** GET /user — the signed-in user, with identities and factors. */
export default function getUser(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/user', { config: { access: 'user' } }, async (request) =>
    userJson((await callerOf(deps, request)).user),
  );
}
