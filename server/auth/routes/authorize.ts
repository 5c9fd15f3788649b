import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { redirect, requestMeta } from '../http.ts';
import { isPlainObject, queryString } from '../input.ts';
import { parseCodeChallenge } from '../pkce.ts';
import { authorizationUrl } from '../social.ts';

/** GET /authorize?provider=… — sends the browser to the social provider (opened as a page: no API key). */
export default function authorize(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/authorize', { config: { access: 'open' } }, async (request, reply) => {
    const query = request.query;
    const provider = queryString(query, 'provider', 64);
    if (provider === '') throw authErrors.validation('Unsupported provider: missing provider');
    const url = await authorizationUrl(
      deps,
      {
        provider,
        redirectTo: queryString(query, 'redirect_to') || undefined,
        scopes: queryString(query, 'scopes', 1024),
        pkce: parseCodeChallenge(
          queryString(query, 'code_challenge', 256),
          queryString(query, 'code_challenge_method', 16),
        ),
        extra: isPlainObject(query)
          ? (Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === 'string')) as Record<
              string,
              string
            >)
          : {},
      },
      requestMeta(request),
    );
    return redirect(reply, url, 302);
  });
}
