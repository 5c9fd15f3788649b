import { Readable, Writable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config.ts';
import {
  type BlobInfo,
  BlobNotFound,
  type BlobWrite,
  type ByteRange,
  type StorageBackend,
} from './backend.ts';

/** S3's smallest part (but the last); also the most one upload holds in memory at a time. */
export const PART_SIZE = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

export type Warn = (message: string, error: unknown) => void;

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph, ...), one object per blob key.
 *
 * A write streams the bytes in 5 MiB parts of a multipart upload, which stays invisible until
 * `commit()` completes it; `abort()` aborts it. A blob smaller than one part never starts a multipart
 * upload: its bytes (under 5 MiB) are held and written with one PUT on commit. Either way nothing is
 * readable under the key before commit, and memory per upload stays under two parts.
 */
export class S3Backend implements StorageBackend {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly warn: Warn,
  ) {}

  static async open(settings: StorageConfig['s3'], warn: Warn): Promise<S3Backend> {
    if (!settings.bucket) throw new Error('STORAGE_S3_BUCKET is not set');
    const options: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where S3 requires them: several S3-compatible stores reject the newer
      // default trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (settings.endpoint) options.endpoint = settings.endpoint;
    if (settings.accessKeyId && settings.secretAccessKey) {
      options.credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
    }
    const client = new S3Client(options);
    try {
      await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    } catch (error) {
      client.destroy();
      const reason = (error as Error).name || (error as Error).message;
      throw new Error(
        `S3 bucket ${settings.bucket} is not reachable (${reason}): check STORAGE_S3_* settings`,
      );
    }
    return new S3Backend(client, settings.bucket, warn);
  }

  async startWrite(key: string, info: BlobInfo): Promise<BlobWrite> {
    const { client, bucket, warn } = this;
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let uploadId: string | undefined;
    const parts: { PartNumber: number; ETag: string | undefined }[] = [];
    let settled = false;

    const uploadPart = async (body: Buffer) => {
      if (!uploadId) {
        const created = await client.send(
          new CreateMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            ContentType: info.contentType,
            CacheControl: info.cacheControl,
          }),
        );
        uploadId = created.UploadId;
        if (!uploadId) throw new Error('S3 returned no upload id');
      }
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }),
      );
      parts.push({ PartNumber, ETag });
    };

    const takePending = () => {
      const body = Buffer.concat(pending, pendingLength);
      pending = [];
      pendingLength = 0;
      return body;
    };

    const stream = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        pending.push(chunk);
        pendingLength += chunk.length;
        if (pendingLength < PART_SIZE) return callback();
        // Backpressure: the next chunk is accepted once this part is stored.
        uploadPart(takePending()).then(() => callback(), callback);
      },
      final(callback) {
        // The last part may be smaller than PART_SIZE; a blob that never filled a part stays pending
        // and is written with one PUT on commit.
        if (!uploadId || pendingLength === 0) return callback();
        uploadPart(takePending()).then(() => callback(), callback);
      },
    });

    return {
      stream,
      async commit() {
        if (settled) throw new Error('blob write already settled');
        settled = true;
        if (uploadId) {
          await client.send(
            new CompleteMultipartUploadCommand({
              Bucket: bucket,
              Key: key,
              UploadId: uploadId,
              MultipartUpload: { Parts: parts },
            }),
          );
        } else {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: takePending(),
              ContentType: info.contentType,
              CacheControl: info.cacheControl,
            }),
          );
        }
      },
      async abort() {
        const wasSettled = settled;
        settled = true;
        stream.destroy();
        pending = [];
        pendingLength = 0;
        if (uploadId && !wasSettled) {
          const id = uploadId;
          uploadId = undefined;
          await client
            .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: id }))
            .catch((error) => warn(`could not abort multipart upload ${id} of blob ${key}`, error));
        }
      },
    };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = result.Body;
      if (body instanceof Readable) return body;
      if (body && 'transformToWebStream' in body) {
        return Readable.fromWeb(body.transformToWebStream() as import('node:stream/web').ReadableStream);
      }
      throw new Error('S3 returned no body');
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFound(key);
      throw error;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: toKey,
          CopySource: `${this.bucket}/${encodeURIComponent(fromKey)}`,
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFound(fromKey);
      throw error;
    }
  }

  async remove(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (result.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(
          `S3 could not delete ${failed.length} blob(s): ${failed[0]?.Code} ${failed[0]?.Message}`,
        );
      }
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
