import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { callerOf, requestMeta } from '../http.ts';
import { queryString } from '../input.ts';
import { logout as endSessions, type LogoutScope } from '../sessions.ts';

const SCOPES = new Set<LogoutScope>(['global', 'local', 'others']);

/** POST /logout?scope=global|local|others — ends sessions; 204. */
export default function logout(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/logout', { config: { access: 'user' } }, async (request, reply) => {
    const scope = (queryString(request.query, 'scope', 16) || 'global') as LogoutScope;
    if (!SCOPES.has(scope)) throw authErrors.validation('Unsupported logout scope');
    const caller = await callerOf(deps, request);
    await endSessions(deps, caller.user, caller.sessionId, scope, requestMeta(request));
    deps.app.jwt.forget(caller.token);
    return reply.status(204).send();
  });
}
