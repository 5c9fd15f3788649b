import type { FastifyInstance } from 'fastify';
import { VERIFY_TYPES, type VerifyType, verify } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { authErrors, toAuthError } from '../errors.ts';
import { redirect, requestMeta } from '../http.ts';
import { queryString } from '../input.ts';
import { errorRedirect, withFragment, withQuery } from '../redirects.ts';

/**
 * GET /verify — the link in a mail, opened in a browser (no API key). Answers with a redirect to the
 * allow-listed `redirect_to`: the session in the fragment, `?code=` for PKCE flows, or the error.
 */
export default function verifyLink(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/verify', { config: { access: 'open' } }, async (request, reply) => {
    const token = queryString(request.query, 'token', 256);
    const type = queryString(request.query, 'type', 32);
    if (type === '') throw authErrors.validation('Verify requires a verification type');
    if (token === '') throw authErrors.validation('Verify requires a token or a token hash');
    if (!(VERIFY_TYPES as readonly string[]).includes(type) || type === 'email') {
      throw authErrors.validation('Unsupported verification type');
    }
    const target = deps.redirects.resolve(queryString(request.query, 'redirect_to', 2048) || undefined);
    const pkce = token.startsWith('pkce_');
    const hashed = pkce ? token.slice('pkce_'.length) : token;
    try {
      if (!/^[0-9a-f]{56}$/.test(hashed)) throw authErrors.linkExpired();
      const outcome = await verify(
        deps,
        { type: type as VerifyType, token: hashed, email: undefined, pkce },
        requestMeta(request),
      );
      if (outcome.kind === 'message') {
        const url = pkce ? withQuery(target, { message: outcome.message }) : target;
        return redirect(reply, withFragment(url, { message: outcome.message }));
      }
      if (outcome.kind === 'code') return redirect(reply, withQuery(target, { code: outcome.authCode }));
      return redirect(
        reply,
        withFragment(target, {
          access_token: outcome.tokens.accessToken,
          expires_at: String(outcome.tokens.expiresAt),
          expires_in: String(outcome.tokens.expiresIn),
          refresh_token: outcome.tokens.refreshToken,
          token_type: 'bearer',
          type: outcome.type,
        }),
      );
    } catch (error) {
      const apiError = toAuthError(error);
      if (apiError.status >= 500) request.log.error({ err: error }, 'email link verification failed');
      return redirect(reply, errorRedirect(target, apiError, pkce));
    }
  });
}
