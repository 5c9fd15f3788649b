import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';

/**
 * GET /.well-known/jwks.json — the public halves of the asymmetric signing keys, current first then
 * the previous one (decision 178), as GoTrue's Jwks handler publishes them. The symmetric JWT_SECRET
 * is never published: with HS256 only the set is empty, and auth-js then verifies through GET /user.
 */
export default function jwks(app: FastifyInstance, deps: AuthDeps): void {
  const body = { keys: deps.app.keys.signingKeys.map((key) => key.publicJwk) };
  app.get('/.well-known/jwks.json', { config: { access: 'open' } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return body;
  });
}
