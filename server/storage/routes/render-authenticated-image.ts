import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import { sendRendition } from '../http/send-object.ts';
import { normalizeTransform, type Transform, transformSchema } from '../render/transform.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET /render/image/authenticated/:bucketName/* — an image the caller may download, transformed
 * (storage-js download with `transform`). The object is found exactly as a download finds it, so
 * the bucket's policies decide (decision 228).
 */
export default function renderAuthenticatedImage(app: FastifyInstance, { storage }: StorageDeps): void {
  app.get<{ Querystring: Transform & { download?: string } }>(
    '/render/image/authenticated/:bucketName/*',
    {
      compress: false,
      schema: {
        querystring: {
          ...transformSchema,
          properties: { ...transformSchema.properties, download: { type: 'string' } },
        },
      },
    },
    async (request, reply) => {
      const { bucketName, name } = objectParams(request);
      const object = await storage.findObject(callerOf(request), bucketName, name);
      const rendition = await storage.renderImage(
        object,
        normalizeTransform(request.query),
        request.headers.accept,
      );
      return sendRendition(request, reply, object, rendition, { download: request.query.download });
    },
  );
}
