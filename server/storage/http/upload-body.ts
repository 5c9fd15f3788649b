import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { onFirstUse } from '../../lazy.ts';
import { StorageErrors } from '../errors.ts';
import type { IncomingFile } from '../storage.ts';

/** busboy loads with the first multipart upload, not at start-up (decision 086). */
const loadBusboy = onFirstUse(async () => (await import('busboy')).default);

/** Largest user metadata (JSON) an upload may attach. */
export const MAX_USER_METADATA_BYTES = 64 * 1024;

/**
 * The body of an upload request, read as storage-js sends it (decision 042): multipart/form-data
 * (fields `cacheControl`, `metadata`, `contentType` before one file part; storage-js's Blob/File/
 * FormData uploads) or the raw bytes (Buffer, stream, string uploads) with `content-type`,
 * `cache-control` and base64 JSON `x-metadata` headers. Nothing is buffered: the file part or the raw
 * request is handed on as a stream.
 *
 * When the upload fails part-way (too large, wrong type, refused by a policy), `discard()` stops
 * consuming and lets the rest of the request drain, so the client reads the error instead of a reset
 * connection — up to `drainLimit` bytes, past which the connection is closed.
 */
export class UploadBody {
  private readonly raw: IncomingMessage;
  private readonly source: Readable;
  private discarding = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly drainLimit: number,
  ) {
    this.raw = request.raw;
    // The service's content-type parser hands the request stream over untouched (or decompressed).
    this.source = request.body instanceof Readable ? request.body : Readable.from([]);
    // A client that goes away mid-upload must fail the upload, not leave it waiting.
    this.raw.once('close', () => {
      if (!this.raw.complete) this.source.destroy(new Error('the client closed the connection mid-upload'));
    });
  }

  get isMultipart(): boolean {
    return /^multipart\/form-data\b/i.test(this.request.headers['content-type'] ?? '');
  }

  /** The byte count the client announced for a raw body. */
  get declaredLength(): number | undefined {
    if (this.isMultipart) return undefined;
    const header = this.request.headers['content-length'];
    return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
  }

  file(): Promise<IncomingFile> {
    return this.isMultipart ? this.multipartFile() : Promise.resolve(this.rawFile());
  }

  private rawFile(): IncomingFile {
    const { headers } = this.request;
    return {
      stream: this.source,
      contentType: headers['content-type'],
      cacheControl: cacheControlHeader(headers['cache-control']),
      userMetadata: headers['x-metadata'] === undefined ? null : decodeMetadataHeader(headers['x-metadata']),
    };
  }

  private async multipartFile(): Promise<IncomingFile> {
    const busboy = await loadBusboy();
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: this.request.headers,
          limits: {
            files: 1,
            fields: 20,
            parts: 30,
            fieldSize: MAX_USER_METADATA_BYTES,
            headerPairs: 50,
          },
        });
      } catch {
        return reject(StorageErrors.invalidRequest('Invalid multipart/form-data body'));
      }
      const fields: Record<string, string> = {};
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        reject(error);
      };

      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) {
          fail(StorageErrors.entityTooLarge('user_metadata'));
          return;
        }
        if (!(name in fields)) fields[name] = value;
      });
      parser.on('file', (_name, stream, info) => {
        if (settled) {
          stream.resume();
          return;
        }
        settled = true;
        try {
          const cacheTime = fields.cacheControl;
          if (cacheTime !== undefined && !/^\d{1,10}$/.test(cacheTime.trim())) {
            throw StorageErrors.invalidRequest('cacheControl must be a number of seconds');
          }
          const metadata = fields.metadata ?? fields.userMetadata;
          resolve({
            stream,
            contentType: fields.contentType || info.mimeType,
            cacheControl: cacheTime === undefined ? 'no-cache' : `max-age=${cacheTime.trim()}`,
            userMetadata: metadata === undefined ? null : parseMetadata(metadata),
          });
        } catch (error) {
          stream.resume();
          reject(error);
        }
      });
      parser.on('close', () => fail(StorageErrors.noContentProvided()));
      parser.on('error', () => fail(StorageErrors.invalidRequest('Invalid multipart/form-data body')));
      this.source.on('error', (error) => parser.destroy(error));
      this.source.pipe(parser);
    });
  }

  /** Stops using the body; the rest of the request is read and thrown away (bounded). */
  discard(): void {
    if (this.discarding) return;
    this.discarding = true;
    if (this.raw.complete || this.raw.destroyed) return;
    this.source.unpipe();
    let drained = 0;
    this.source.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > this.drainLimit) this.raw.destroy();
    });
    this.source.on('error', () => {});
    this.source.resume();
  }
}

function cacheControlHeader(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return 'no-cache';
  const trimmed = value.trim();
  if (trimmed.length > 256 || !/^[\x20-\x7e]+$/.test(trimmed)) {
    throw StorageErrors.invalidRequest('Invalid cache-control header');
  }
  return trimmed;
}

function decodeMetadataHeader(value: string | string[]): Record<string, unknown> {
  const single = Array.isArray(value) ? value[0] : value;
  if (single === undefined || !/^[A-Za-z0-9+/=_-]*$/.test(single)) {
    throw StorageErrors.invalidRequest('x-metadata must be base64-encoded JSON');
  }
  return parseMetadata(Buffer.from(single, 'base64').toString('utf8'));
}

function parseMetadata(json: string): Record<string, unknown> {
  if (Buffer.byteLength(json, 'utf8') > MAX_USER_METADATA_BYTES) {
    throw StorageErrors.entityTooLarge('user_metadata');
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw StorageErrors.invalidRequest('metadata must be a JSON object');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw StorageErrors.invalidRequest('metadata must be a JSON object');
  }
  return value as Record<string, unknown>;
}
