import type { FastifyInstance } from 'fastify';
import { FunctionErrors } from '../../../functions/errors.ts';
import { noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { NewsDeps } from '../news.ts';
import { testFeed } from '../news.ts';

const URL = '/news-feed-test';

/**
 * POST /functions/v1/news-feed-test `{"feed_url": "…"}` — the admin's "test": fetches the feed once,
 * under the same rules as the schedule, and answers with what it would add, saving nothing.
 * Always 200 with `{ok, …}` when the request itself was valid: a feed that fails is an answer.
 */
export default function newsFeedTest(app: FastifyInstance, deps: { news: NewsDeps }): void {
  app.post(URL, { config: { functionOperator: true } }, async (request, reply) => {
    const body = request.body;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw FunctionErrors.bodyNotObject();
    }
    const feedUrl = (body as Record<string, unknown>).feed_url;
    if (typeof feedUrl !== 'string' || feedUrl.length === 0 || feedUrl.length > 2048) {
      throw FunctionErrors.invalidFeedUrl('send the feed address as a string of at most 2048 characters');
    }
    return noStore(reply).send(await testFeed(deps.news, feedUrl));
  });
  refuseOtherMethods(app, URL, 'POST');
}
