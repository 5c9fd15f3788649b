import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { requestMeta, sessionCallerOf } from '../http.ts';
import { challenge } from '../mfa.ts';

/** POST /factors/{id}/challenge — a challenge to answer with the current code. */
export default function challengeFactor(app: FastifyInstance, deps: AuthDeps): void {
  app.post<{ Params: { factorId: string } }>(
    '/factors/:factorId/challenge',
    { config: { access: 'user' } },
    async (request) =>
      challenge(deps, await sessionCallerOf(deps, request), request.params.factorId, requestMeta(request)),
  );
}
