import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { redirect, requestMeta } from '../http.ts';
import { isCleanText, isPlainObject } from '../input.ts';
import { handleCallback } from '../social.ts';

function paramsOf(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (!isPlainObject(source)) continue;
    for (const [name, raw] of Object.entries(source)) {
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (
        typeof value === 'string' &&
        value.length <= 4096 &&
        isCleanText(value) &&
        params[name] === undefined
      ) {
        params[name] = value;
      }
    }
  }
  return params;
}

/** GET|POST /callback — the provider sends the browser back here; we send it on to the app. */
export default function callback(app: FastifyInstance, deps: AuthDeps): void {
  const handler = async (request: FastifyRequest, reply: Parameters<typeof redirect>[0]) =>
    redirect(reply, await handleCallback(deps, paramsOf(request), requestMeta(request)), 302);
  app.get('/callback', { config: { access: 'open' } }, handler);
  app.post('/callback', { config: { access: 'open' } }, handler);
}
