import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { callerOf, redirect, requestMeta } from '../http.ts';
import { isPlainObject, queryString } from '../input.ts';
import { parseCodeChallenge } from '../pkce.ts';
import { authorizationUrl } from '../social.ts';

/**
 * GET /user/identities/authorize?provider=… — starts the provider flow that links its identity to the
 * signed-in user. supabase-js asks with skip_http_redirect=true and gets `{url}`.
 */
export default function linkIdentity(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/user/identities/authorize', { config: { access: 'user' } }, async (request, reply) => {
    if (!deps.config.auth.manualLinking) throw authErrors.manualLinkingDisabled();
    const caller = await callerOf(deps, request);
    const query = request.query;
    const url = await authorizationUrl(
      deps,
      {
        provider: queryString(query, 'provider', 64),
        redirectTo: queryString(query, 'redirect_to') || undefined,
        scopes: queryString(query, 'scopes', 1024),
        pkce: parseCodeChallenge(
          queryString(query, 'code_challenge', 256),
          queryString(query, 'code_challenge_method', 16),
        ),
        linkingUserId: caller.user.id,
        extra: isPlainObject(query)
          ? (Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === 'string')) as Record<
              string,
              string
            >)
          : {},
      },
      requestMeta(request),
    );
    if (queryString(query, 'skip_http_redirect', 8) === 'true') return { url };
    return redirect(reply, url, 302);
  });
}
