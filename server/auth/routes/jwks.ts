import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';

/**
 * GET /.well-known/jwks.json — access tokens are signed with the symmetric JWT_SECRET, which is never
 * published; like GoTrue for symmetric-only projects the key set is empty (auth-js then verifies
 * through GET /user).
 */
export default function jwks(app: FastifyInstance, _deps: AuthDeps): void {
  app.get('/.well-known/jwks.json', { config: { access: 'open' } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return { keys: [] };
  });
}
