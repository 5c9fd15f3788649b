import { StorageErrors } from './errors.ts';

/** A declared media type: the header as stored, and its essence (`type/subtype`, lower case). */
export interface MediaType {
  value: string;
  essence: string;
}

const TOKEN = "[a-z0-9!#$&^_.+'-]+";
const ESSENCE = new RegExp(`^${TOKEN}/${TOKEN}$`);
const ALLOWED_PATTERN = new RegExp(`^${TOKEN}/(${TOKEN}|\\*)$`);

/** Names browsers and tools use for a type, mapped to the registered one. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'application/x-zip-compressed': 'application/zip',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
};

/** What file-type may report for content whose declared type is the key. */
const SNIFF_EQUIVALENTS: Record<string, string[]> = {
  'image/png': ['image/apng'],
  'image/heic': ['image/heif'],
  'image/heif': ['image/heic'],
  'audio/mp4': ['video/mp4', 'audio/x-m4a'],
  'video/mp4': ['audio/mp4'],
  'audio/wav': ['audio/x-wav', 'audio/vnd.wave'],
  'application/x-tar': ['application/gzip'],
};

/** Text formats file-type recognises only when they open with a prolog that is optional. */
const PROLOG_ONLY = new Set(['application/xml']);

/** Raster image types whose bytes are also scanned for embedded script, markup or archives. */
export const RASTER_IMAGE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/tiff',
  'image/heic',
  'image/heif',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/**
 * Declared types that say nothing about the content: storage-js's default for a Buffer or string
 * (`text/plain;charset=UTF-8`) and for a Blob without a type, and a missing header. Objects declared so
 * are stored as what their bytes are, when file-type recognises them (decision 109).
 */
export function isGenericType(essence: string): boolean {
  return essence === 'text/plain' || essence === 'application/octet-stream';
}

/**
 * Parses a Content-Type header (or a multipart part's type). Invalid or absent types are refused
 * with Supabase's "mime type ... is not supported" (415). Parameters are kept; only printable ASCII.
 */
export function parseMediaType(header: string | undefined): MediaType {
  const value = (header ?? '').trim();
  if (!value) return { value: 'application/octet-stream', essence: 'application/octet-stream' };
  const essenceRaw = (value.split(';', 1)[0] ?? '').trim().toLowerCase();
  const essence = ALIASES[essenceRaw] ?? essenceRaw;
  if (!ESSENCE.test(essence) || value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw StorageErrors.invalidMimeType(value);
  }
  const parameters = value.slice(value.split(';', 1)[0]?.length ?? 0);
  return { value: `${essence}${parameters}`, essence };
}

/** Whether `essence` is one of the bucket's allowed types (`image/*` allows every image type). */
export function isAllowedType(essence: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const [type] = essence.split('/');
  return allowed.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower === essence || lower === `${type}/*` || lower === '*/*';
  });
}

/** A bucket that only takes images gets the image-name rules of product §image-rules (decision 043). */
export function isImageBucket(allowed: readonly string[] | null): boolean {
  return (
    !!allowed && allowed.length > 0 && allowed.every((pattern) => pattern.toLowerCase().startsWith('image/'))
  );
}

export function validateAllowedMimeTypes(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length > 100) {
    throw StorageErrors.invalidRequest('allowed_mime_types must be a list of at most 100 media types');
  }
  return value.map((item) => {
    if (typeof item !== 'string' || !ALLOWED_PATTERN.test(item.trim().toLowerCase())) {
      throw StorageErrors.invalidRequest(
        `Invalid mime type in allowed_mime_types: ${String(item).slice(0, 100)}`,
      );
    }
    return item.trim().toLowerCase();
  });
}

/**
 * Does what the first bytes are (file-type's verdict, undefined when it recognises nothing) agree
 * with what the uploader declared? `recognisable` is file-type's `supportedMimeTypes`. A type file-type can recognise must be recognised as itself (a
 * text file named .png declared image/png is refused); a type it cannot recognise (text, JSON, CSV,
 * SVG) must not turn out to be something it recognises (a ZIP declared text/plain is refused).
 * `application/octet-stream` declares nothing in particular and matches anything.
 */
export function contentMatchesDeclared(
  declared: string,
  sniffed: string | undefined,
  recognisable: ReadonlySet<string>,
): boolean {
  if (declared === 'application/octet-stream') return true;
  if (sniffed === undefined) return !recognisable.has(declared) || PROLOG_ONLY.has(declared);
  if (sniffed === declared) return true;
  return (SNIFF_EQUIVALENTS[declared] ?? []).includes(sniffed);
}
