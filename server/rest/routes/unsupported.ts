import type { FastifyInstance } from 'fastify';
import { restErrors } from '../errors.ts';
import { profileOf } from '../request.ts';
import type { RestDeps } from '../rest.ts';

/**
 * What the data API does not serve, answered as PostgREST does: the root's OpenAPI description is
 * disabled (PGRST126), PUT upserts are not offered (PGRST117), nested paths do not exist (PGRST125).
 */
export default function unsupported(app: FastifyInstance, deps: RestDeps): void {
  // Upstream answers these before looking at Accept-Profile (getResource comes first).
  app.get('/', async () => {
    throw restErrors.openApiDisabled();
  });
  app.put('/:name', async (request) => {
    // ...but a PUT's Content-Profile is checked before its method (getSchema, then getAction)
    profileOf(request.headers, 'PUT', deps.ctx.config.restSchemas);
    throw restErrors.unsupportedMethod('PUT');
  });
  app.all('/*', async () => {
    throw restErrors.invalidPath();
  });
}
