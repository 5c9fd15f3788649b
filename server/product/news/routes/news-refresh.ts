import type { FastifyInstance } from 'fastify';
import { FunctionErrors } from '../../../functions/errors.ts';
import { noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { NewsDeps } from '../news.ts';
import { refreshNow } from '../news.ts';

const URL = '/news-refresh';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /functions/v1/news-refresh — "refresh now" (product §news): `{}` fetches every enabled source,
 * `{"source_id": "…"}` that one source (enabled or not). For an admin's access token or the service
 * key. Answers with each source's outcome; every outcome is also recorded on its source.
 */
export default function newsRefresh(app: FastifyInstance, deps: { news: NewsDeps }): void {
  app.post(URL, { config: { functionOperator: true } }, async (request, reply) => {
    const body = request.body ?? {};
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw FunctionErrors.bodyNotObject();
    const sourceId = (body as Record<string, unknown>).source_id;
    if (
      sourceId !== undefined &&
      sourceId !== null &&
      (typeof sourceId !== 'string' || !UUID.test(sourceId))
    ) {
      throw FunctionErrors.invalidSourceId();
    }
    const outcomes = await refreshNow(
      deps.news,
      typeof sourceId === 'string' ? sourceId.toLowerCase() : null,
    );
    if (outcomes === null) throw FunctionErrors.sourceNotFound();
    return noStore(reply).send({ sources: outcomes });
  });
  refuseOtherMethods(app, URL, 'POST');
}
