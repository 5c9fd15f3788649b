import type { FastifyInstance } from 'fastify';
import { passwordGrant } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { bodyOf, callerOf, rememberDevice, requestMeta } from '../http.ts';
import { queryString } from '../input.ts';
import { exchangeAuthCode, refreshSession } from '../sessions.ts';
import { idTokenGrant } from '../social.ts';

/** POST /token?grant_type=password|refresh_token|pkce|id_token|web3 */
export default function token(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/token', { config: { access: 'public' } }, async (request, reply) => {
    const grantType = queryString(request.query, 'grant_type', 64);
    const body = bodyOf(request);
    const meta = requestMeta(request);
    switch (grantType) {
      case 'password': {
        const signedIn = await passwordGrant(
          deps,
          {
            email: body.string('email', 320),
            phone: body.string('phone', 64),
            password: body.string('password', 4096),
          },
          meta,
        );
        rememberDevice(reply, deps, meta, signedIn.deviceToken);
        return signedIn.body;
      }
      case 'refresh_token':
        await deps.limits.perIp('refresh', meta.ip);
        return refreshSession(deps, body.string('refresh_token', 512), meta);
      case 'pkce':
        await deps.limits.perIp('signin', meta.ip);
        return exchangeAuthCode(
          deps,
          { authCode: body.string('auth_code', 256), verifier: body.string('code_verifier', 256) },
          meta,
        );
      case 'id_token': {
        const link = body.bool('link_identity') === true;
        const linkUserId = link ? (await callerOf(deps, request)).user.id : undefined;
        return idTokenGrant(
          deps,
          {
            provider: body.string('provider', 64),
            idToken: body.string('id_token', 16_384),
            nonce: body.string('nonce', 512),
            linkUserId,
          },
          meta,
        );
      }
      case 'web3':
        throw authErrors.web3Disabled();
      default:
        throw authErrors.unsupportedGrant();
    }
  });
}
