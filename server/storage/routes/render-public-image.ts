import type { FastifyInstance } from 'fastify';
import { objectParams } from '../http/caller.ts';
import { sendRendition } from '../http/send-object.ts';
import { normalizeTransform, type Transform, transformSchema } from '../render/transform.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET /render/image/public/:bucketName/* — an image of a public bucket, transformed (storage-js
 * getPublicUrl with `transform`); anyone may ask, as for the object itself (decision 228).
 */
export default function renderPublicImage(app: FastifyInstance, { storage }: StorageDeps): void {
  app.get<{ Querystring: Transform & { download?: string } }>(
    '/render/image/public/:bucketName/*',
    {
      compress: false,
      config: { storagePublic: true },
      schema: {
        querystring: {
          ...transformSchema,
          properties: { ...transformSchema.properties, download: { type: 'string' } },
        },
      },
    },
    async (request, reply) => {
      const { bucketName, name } = objectParams(request);
      const object = await storage.findObject(null, bucketName, name);
      const rendition = await storage.renderImage(
        object,
        normalizeTransform(request.query),
        request.headers.accept,
      );
      return sendRendition(request, reply, object, rendition, { download: request.query.download });
    },
  );
}
