import type { FastifyInstance } from 'fastify';
import { FunctionErrors } from '../../../functions/errors.ts';
import { noStore, refuseOtherMethods } from '../../../functions/http.ts';
import { ApiError } from '../../../http/errors.ts';
import type { PostsDeps } from '../posts.ts';
import { POST_BODY_MAX, POST_REQUEST_LIMIT, renderPostMarkdown } from '../posts.ts';

const URL = '/admin-post-preview';

/**
 * POST /functions/v1/admin-post-preview — `{content}` (Markdown) → `{html}`: exactly what saving the
 * post would store, for the editor's preview. Admins (or the service key) only; writes nothing.
 */
export default function adminPostPreview(app: FastifyInstance, _deps: { posts: PostsDeps }): void {
  app.post(
    URL,
    { config: { functionOperator: true }, bodyLimit: POST_REQUEST_LIMIT },
    async (request, reply) => {
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw FunctionErrors.bodyNotObject();
      const content = (body as Record<string, unknown>).content;
      if (typeof content !== 'string' || content.length > POST_BODY_MAX) {
        throw new ApiError(
          400,
          'invalid_post',
          `content must be Markdown text of at most ${POST_BODY_MAX} characters`,
        );
      }
      return noStore(reply).send({ html: renderPostMarkdown(content) });
    },
  );
  refuseOtherMethods(app, URL, 'POST');
}
