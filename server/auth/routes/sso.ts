import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';

/** POST /sso — SAML single sign-on is not configured on this platform; GoTrue's answer for that. */
export default function sso(app: FastifyInstance, _deps: AuthDeps): void {
  app.post('/sso', { config: { access: 'public' } }, async () => {
    throw authErrors.samlDisabled();
  });
}
