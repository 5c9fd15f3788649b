import type { FastifyInstance } from 'fastify';
import { FunctionErrors } from '../../../functions/errors.ts';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import { type ExportDeps, exportUserData } from '../gdpr-export.ts';

const URL = '/gdpr-data-export';

/**
 * POST /functions/v1/gdpr-data-export — the caller's data as a download (product §server-functions). Takes no
 * input: the access token decides whose data it is, so a body (if any) must be a JSON object and is ignored.
 */
export default function gdprDataExport(app: FastifyInstance, deps: { export: ExportDeps }): void {
  app.post(URL, { config: { functionUser: true } }, async (request, reply) => {
    const body = request.body;
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw FunctionErrors.bodyNotObject();
    }
    // Public file URLs as the browser reaches the API: its origin, unless API_EXTERNAL_URL says otherwise.
    const origin = `${request.protocol}://${request.host}`;
    const result = await exportUserData(deps.export, callerOf(request), origin);
    return noStore(reply)
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${result.fileName}"`)
      .send(`${JSON.stringify(result.document, null, 2)}\n`);
  });
  refuseOtherMethods(app, URL, 'POST');
}
