import type { FastifyInstance } from 'fastify';
import { restErrors } from '../errors.ts';
import type { RestDeps } from '../rest.ts';

/**
 * What the data API does not serve, answered as PostgREST does: the root's OpenAPI description is
 * disabled (PGRST126), PUT upserts are not offered (PGRST117), nested paths do not exist (PGRST125).
 */
export default function unsupported(app: FastifyInstance, _deps: RestDeps): void {
  app.get('/', async () => {
    throw restErrors.openApiDisabled();
  });
  app.put('/:name', async () => {
    throw restErrors.unsupportedMethod('PUT');
  });
  app.all('/*', async () => {
    throw restErrors.invalidPath();
  });
}
