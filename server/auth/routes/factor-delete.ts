import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { requestMeta, sessionCallerOf } from '../http.ts';
import { unenroll } from '../mfa.ts';

/** DELETE /factors/{id} — unenrols a factor (a verified one only from an aal2 session). */
export default function deleteFactor(app: FastifyInstance, deps: AuthDeps): void {
  app.delete<{ Params: { factorId: string } }>(
    '/factors/:factorId',
    { config: { access: 'user' } },
    async (request) =>
      unenroll(deps, await sessionCallerOf(deps, request), request.params.factorId, requestMeta(request)),
  );
}
