import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /object/sign/:bucketName/* — a URL that downloads this object without credentials until it
 * expires (storage-js createSignedUrl). Only for objects the caller may read.
 */
export default function createSignedUrl(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Body: { expiresIn: number } }>(
    '/object/sign/:bucketName/*',
    {
      schema: {
        body: {
          type: 'object',
          required: ['expiresIn'],
          properties: { expiresIn: { type: 'integer', minimum: 1 }, transform: { type: 'object' } },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { bucketName, name } = objectParams(request);
      return { signedURL: await storage.signUrl(caller, bucketName, name, request.body.expiresIn) };
    },
  );
}
