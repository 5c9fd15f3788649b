import type { FastifyRequest } from 'fastify';
import type { Caller, StorageDeps } from '../storage.ts';
import type { UploadGrant } from '../tokens.ts';
import { objectParams } from './caller.ts';
import { UploadBody } from './upload-body.ts';

/** How much of a refused upload is still read (and thrown away) so the client sees the answer. */
const DRAIN_CAP = 64 * 1024 * 1024;

/**
 * The upload flow shared by POST/PUT object and PUT object/upload/sign: settle everything that can
 * refuse the upload before reading the body, then stream the file into the service. On any failure
 * the rest of the body is discarded and the error answered.
 */
export async function receiveUpload(
  request: FastifyRequest,
  { ctx, storage }: StorageDeps,
  caller: Caller,
  options: { upsert: boolean; grant?: UploadGrant },
): Promise<{ Id: string; Key: string }> {
  const { bucketName, name } = objectParams(request);
  const body = new UploadBody(request, Math.min(ctx.config.storage.fileSizeLimit, DRAIN_CAP) + 1024 * 1024);
  try {
    const plan = await storage.prepareUpload(caller, {
      bucketId: bucketName,
      name,
      upsert: options.upsert,
      declaredLength: body.declaredLength,
    });
    const file = await body.file();
    const { id, key } = await storage.upload(caller, plan, file, options.grant);
    return { Id: id, Key: key };
  } catch (error) {
    body.discard();
    throw error;
  }
}
