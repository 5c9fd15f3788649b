import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import { normalizeTransform, type Transform, transformSchema } from '../render/transform.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /object/sign/:bucketName/* — a URL that downloads this object without credentials until it
 * expires (storage-js createSignedUrl). Only for objects the caller may read. With `transform`, the
 * URL renders the image with those transformations, signed into it (decision 228).
 */
export default function createSignedUrl(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Body: { expiresIn: number; transform?: Transform } }>(
    '/object/sign/:bucketName/*',
    {
      schema: {
        body: {
          type: 'object',
          required: ['expiresIn'],
          properties: { expiresIn: { type: 'integer', minimum: 1 }, transform: transformSchema },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { bucketName, name } = objectParams(request);
      const { expiresIn, transform } = request.body;
      const normalized = transform ? normalizeTransform(transform) : undefined;
      return { signedURL: await storage.signUrl(caller, bucketName, name, expiresIn, normalized) };
    },
  );
}
