import type { FastifyInstance } from 'fastify';
import { listUserPage } from '../admin.ts';
import type { AuthDeps } from '../auth.ts';
import { queryString } from '../input.ts';

/** GET /admin/users?page&per_page (service key) — with GoTrue's X-Total-Count and Link headers. */
export default function adminListUsers(app: FastifyInstance, deps: AuthDeps): void {
  app.get('/admin/users', { config: { access: 'admin' } }, async (request, reply) => {
    const query = request.query;
    const { body, total, page, perPage } = await listUserPage(deps, {
      page: queryString(query, 'page', 16),
      perPage: queryString(query, 'per_page', 16),
      filter: queryString(query, 'filter', 256),
      sort: queryString(query, 'sort', 64),
    });
    const last = Math.max(1, Math.ceil(total / perPage));
    const link = (target: number) => `<${deps.apiUrl}/admin/users?page=${target}&per_page=${perPage}>`;
    const links = [...(page < last ? [`${link(page + 1)}; rel="next"`] : []), `${link(last)}; rel="last"`];
    reply.header('x-total-count', String(total)).header('link', links.join(', '));
    return body;
  });
}
