import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../backends/backend.ts';
import { StorageErrors } from '../errors.ts';
import type { Rendition } from '../render/renderer.ts';
import type { StorageService, StoredObject } from '../storage.ts';

export interface SendOptions {
  /** `?download=`: '' uses the object's own file name. */
  download?: string | undefined;
  /** Signed URLs: the response expires with the token (Expires instead of Cache-Control). */
  expiresAt?: Date;
}

/**
 * Serves an object's bytes the way browsers and caches expect (decision 046): its type, length,
 * ETag and Last-Modified; conditional requests answered 304; a single byte range answered 206 (or
 * 416); `?download=` as an attachment; and headers that keep user content inert — nosniff, HTML sent
 * as text/plain, and (set for every API answer) a sandboxing Content-Security-Policy — while letting
 * other sites embed public images (Cross-Origin-Resource-Policy: cross-origin).
 */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: StorageService,
  object: StoredObject,
  options: SendOptions = {},
): Promise<FastifyReply> {
  const { metadata } = object;
  const size = metadata.size;
  reply
    .header('etag', metadata.eTag)
    .header('last-modified', object.modified_http)
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin');
  if (options.expiresAt) reply.header('expires', options.expiresAt.toUTCString());
  else reply.header('cache-control', metadata.cacheControl);

  if (notModified(request, metadata.eTag, object.modified_http)) return reply.code(304).send();

  reply.header('content-type', safeContentType(metadata.mimetype));
  if (options.download !== undefined) {
    reply.header('content-disposition', attachment(options.download || baseName(object.name)));
  }

  let range: ByteRange | undefined;
  const rangeHeader = request.headers.range;
  if (request.method === 'GET' && rangeHeader && ifRangeHolds(request, metadata.eTag, object.modified_http)) {
    const parsed = parseRange(rangeHeader, size);
    if (parsed === null) throw StorageErrors.invalidRange(size);
    range = parsed;
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  }
  const length = range ? range.end - range.start + 1 : size;
  reply.header('content-length', String(length));
  // An empty string keeps the Content-Length set above (HEAD answers with the object's length).
  if (request.method === 'HEAD' || length === 0) return reply.send('');
  return reply.send(await storage.openBlob(object, range));
}

/** User HTML must not render as a page of ours (Supabase serves it as text/plain too). */
function safeContentType(mimetype: string): string {
  const essence = (mimetype.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (essence === 'text/html' || essence === 'application/xhtml+xml') return 'text/plain; charset=utf-8';
  return mimetype;
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

function notModified(request: FastifyRequest, etag: string, lastModified: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag);
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

/** If-Range: the range applies only to the representation the client already has part of. */
function ifRangeHolds(request: FastifyRequest, etag: string, lastModified: string): boolean {
  const header = request.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (ifRange === undefined) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange.trim() === etag;
  return Date.parse(ifRange) === Date.parse(lastModified);
}

/**
 * One `bytes=` range, clamped to the object (RFC 9110 §14.1.2). undefined: no usable Range (malformed
 * or several ranges), so the whole object is sent; null: not satisfiable (416).
 */
export function parseRange(header: string, size: number): ByteRange | undefined | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return null;
  return { start, end };
}

function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** RFC 6266: an ASCII fallback name and the exact UTF-8 one. */
export function attachment(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Serves a rendered image (decision 228) with the object's caching headers and the same safety
 * headers as a download. Its ETag names the object's bytes and the rendition, so a changed object or
 * another transformation never answers 304 from a client's copy of an earlier one.
 */
export function sendRendition(
  request: FastifyRequest,
  reply: FastifyReply,
  object: StoredObject,
  rendition: Rendition,
  options: SendOptions = {},
): FastifyReply {
  const etag = `"${object.metadata.eTag.replace(/^W\//, '').replaceAll('"', '')}-${rendition.name}"`;
  reply
    .header('etag', etag)
    .header('last-modified', object.modified_http)
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin');
  if (rendition.negotiated) reply.header('vary', 'Accept');
  if (options.expiresAt) reply.header('expires', options.expiresAt.toUTCString());
  else reply.header('cache-control', object.metadata.cacheControl);
  if (notModified(request, etag, object.modified_http)) return reply.code(304).send();
  reply.header('content-type', rendition.contentType).header('content-length', String(rendition.size));
  if (options.download !== undefined) {
    reply.header('content-disposition', attachment(options.download || baseName(object.name)));
  }
  return reply.send(rendition.open());
}
