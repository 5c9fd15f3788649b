import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { EvidenceDeps } from '../evidence.ts';
import { EVIDENCE_MAX_BYTES, EvidenceErrors, receiveEvidence } from '../evidence.ts';

const URL = '/evidence-upload';

/**
 * POST /functions/v1/evidence-upload?object_name=<report id>/<uuid>.<ext> — the reporter's evidence
 * file as the raw body (any content type; the slot's name says what it must be). The caller's slot
 * is checked, the file re-encoded without its metadata and only that copy stored (decision 199).
 * 200 {object_name, content_type, size}; 400/403/409/413/415/422 with a sentence for the reporter.
 */
export default function evidenceUpload(app: FastifyInstance, deps: { evidence: EvidenceDeps }): void {
  app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: EVIDENCE_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    // An announced size over the limit is refused before the body is read, in the reporter's words.
    child.addHook('onRequest', async (request) => {
      if (Number(request.headers['content-length'] ?? 0) > EVIDENCE_MAX_BYTES)
        throw EvidenceErrors.tooLarge();
    });
    child.post(URL, { config: { functionUser: true } }, async (request, reply) => {
      const objectName = (request.query as Record<string, unknown>).object_name;
      if (typeof objectName !== 'string') throw EvidenceErrors.invalidObjectName();
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const stored = await receiveEvidence(deps.evidence, callerOf(request), objectName, raw);
      return noStore(reply).send(stored);
    });
  });
  refuseOtherMethods(app, URL, 'POST');
}
