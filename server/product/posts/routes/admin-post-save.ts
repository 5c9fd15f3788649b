import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PostsDeps } from '../posts.ts';
import { POST_REQUEST_LIMIT, parsePostInput, savePost } from '../posts.ts';

const URL = '/admin-post-save';

/**
 * POST /functions/v1/admin-post-save — an admin creates (no `id`) or updates a post: `{title, content
 * (Markdown), featured, status: "draft"|"published", publish_at, media_urls}`. The body is rendered to
 * sanitised HTML here and stored with the post; the answer is the saved post. Non-admins: 403
 * "Unauthorized" (row-level security decides).
 */
export default function adminPostSave(app: FastifyInstance, deps: { posts: PostsDeps }): void {
  app.post(URL, { config: { functionUser: true }, bodyLimit: POST_REQUEST_LIMIT }, async (request, reply) => {
    const input = parsePostInput(request.body);
    const post = await savePost(deps.posts.db, callerOf(request), input);
    return noStore(reply)
      .code(input.id ? 200 : 201)
      .send(post);
  });
  refuseOtherMethods(app, URL, 'POST');
}
