import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { onFirstUse } from '../../lazy.ts';
import { StorageErrors } from '../errors.ts';
import {
  contentMatchesDeclared,
  isAllowedType,
  isGenericType,
  parseMediaType,
  RASTER_IMAGE_TYPES,
} from '../mime.ts';

/** file-type loads with the first upload, not at start-up (decision 086). */
const fileType = onFirstUse(() => import('file-type'));

/** file-type reads at most this much to recognise a format. */
export const SNIFF_BYTES = 4100;

export interface InspectOptions {
  /** Bytes; one more and the upload fails at once with 413. */
  limit: number;
  /**
   * The declared type's essence, already checked against the bucket unless it is generic
   * (`text/plain`, `application/octet-stream`): then what the bytes are decides (decision 109).
   */
  declared: string;
  /** The declared header as sent, for the refusal of a generic type the bucket does not take. */
  declaredValue?: string;
  allowed: readonly string[] | null;
}

export interface Inspection {
  size: number;
  /** Hex MD5 of the bytes: the object's ETag, the same on every backend. */
  md5: string;
  /** What the first bytes are, by file-type; undefined when it recognised nothing. */
  sniffed: string | undefined;
  /**
   * The type to store instead of the declared one: what was recognised, when the declared type was
   * generic; undefined keeps the declared type.
   */
  stored: string | undefined;
}

/**
 * Text that has no business inside an image and that a browser, an interpreter or a server-side
 * include could act on (polyglot files, decision 044). Matched case-insensitively.
 */
const TEXT_MARKERS = [
  '<?php',
  '<script',
  '<html',
  '<body',
  '<iframe',
  '<svg',
  '<!doctype',
  '<object',
  '<embed',
  '<%@',
  'javascript:',
  'this program cannot be run in dos mode',
].map((marker) => Buffer.from(marker, 'latin1'));

/** Signatures of archives and executables, which turn an image into a JAR, ZIP, PDF or program. */
const BINARY_MARKERS: ((data: Buffer, at: number) => boolean)[] = [
  // ZIP/JAR local file header with a plausible "version needed" (GIFAR and friends).
  (data, at) =>
    data[at] === 0x50 &&
    data[at + 1] === 0x4b &&
    data[at + 2] === 0x03 &&
    data[at + 3] === 0x04 &&
    (data[at + 4] ?? 0xff) <= 0x3f &&
    data[at + 5] === 0x00,
  // ZIP end of central directory, single-disk.
  (data, at) => data.readUInt32BE(at) === 0x504b0506 && data.readUInt32BE(at + 4) === 0,
  // ELF executable.
  (data, at) =>
    data.readUInt32BE(at) === 0x7f454c46 &&
    ((data[at + 4] ?? 0) === 1 || data[at + 4] === 2) &&
    ((data[at + 5] ?? 0) === 1 || data[at + 5] === 2) &&
    data[at + 6] === 1,
  // RAR and 7-Zip archives.
  (data, at) => data.readUInt32BE(at) === 0x52617221 && data.readUInt16BE(at + 4) === 0x1a07,
  (data, at) => data.readUInt32BE(at) === 0x377abcaf && data.readUInt16BE(at + 4) === 0x271c,
  // PDF header.
  (data, at) => data.readUInt32BE(at) === 0x25504446 && data[at + 4] === 0x2d,
];
const BINARY_MARKER_FIRST_BYTES = [0x50, 0x7f, 0x52, 0x37, 0x25];
const LONGEST_MARKER = 48;

const LOWER = new Uint8Array(256).map((_, byte) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte));

function toLower(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) out[i] = LOWER[data[i] as number] as number;
  return out;
}

/**
 * The one pass every upload's bytes take on their way to the backend (decision 042): counts them and
 * fails as soon as the limit is exceeded, hashes them, recognises the format from the first bytes and
 * compares it with the declared type and the bucket's allowed types, and for raster images scans
 * every byte for embedded script, markup or archives and checks the format's end. Bytes pass through
 * unchanged and unbuffered (only the first 4100 are kept, for file-type).
 */
export class UploadInspector extends Transform {
  private size = 0;
  private readonly hash: Hash = createHash('md5');
  private head: Buffer[] = [];
  private headLength = 0;
  private sniffDone = false;
  private sniffed: string | undefined;
  private firstBytes = Buffer.alloc(0);
  private carry = Buffer.alloc(0);
  /** Raster images: scan for embedded script, markup or archives and check the format's end. */
  private scanImage = false;
  private stored: string | undefined;
  private result: Inspection | undefined;

  constructor(private readonly options: InspectOptions) {
    super();
  }

  /** Available once the stream has finished without error. */
  inspection(): Inspection {
    if (!this.result) throw new Error('the upload has not been inspected completely');
    return this.result;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.consume(chunk).then(
      () => callback(null, chunk),
      (error: unknown) => callback(error as Error),
    );
  }

  override _flush(callback: TransformCallback): void {
    this.finish().then(
      () => callback(),
      (error: unknown) => callback(error as Error),
    );
  }

  private async consume(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.size > this.options.limit) throw StorageErrors.entityTooLarge();
    this.hash.update(chunk);
    if (this.firstBytes.length < 16) {
      this.firstBytes = Buffer.concat([this.firstBytes, chunk.subarray(0, 16 - this.firstBytes.length)]);
    }
    if (this.sniffDone) {
      if (this.scanImage) this.scan(chunk);
      return;
    }
    // Until the format is known, bytes wait here; the sniff scans them if they are an image.
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength >= SNIFF_BYTES) await this.sniff();
  }

  private async finish(): Promise<void> {
    if (!this.sniffDone) await this.sniff();
    if (this.scanImage) this.checkEnd();
    this.result = {
      size: this.size,
      md5: this.hash.digest('hex'),
      sniffed: this.sniffed,
      stored: this.stored,
    };
  }

  private async sniff(): Promise<void> {
    this.sniffDone = true;
    const seen = Buffer.concat(this.head);
    this.head = [];
    const head = seen.subarray(0, SNIFF_BYTES);
    const { fileTypeFromBuffer, supportedMimeTypes } = await fileType();
    const detected = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
    this.sniffed = detected ? parseMediaType(detected.mime).essence : undefined;
    const { declared, allowed } = this.options;
    let type = declared;
    if (isGenericType(declared)) {
      // storage-js sends text/plain for a Buffer and octet-stream for a Blob without a type: the
      // bytes say what the object is, and that must be what the bucket takes.
      if (this.sniffed) {
        type = this.sniffed;
        this.stored = this.sniffed;
      }
      if (!isAllowedType(type, allowed)) {
        throw StorageErrors.invalidMimeType(this.stored ?? this.options.declaredValue ?? declared);
      }
    } else {
      if (!contentMatchesDeclared(declared, this.sniffed, supportedMimeTypes)) {
        throw StorageErrors.contentMismatch();
      }
      if (this.sniffed && !isAllowedType(this.sniffed, allowed)) {
        throw StorageErrors.invalidMimeType(this.sniffed);
      }
    }
    this.scanImage = RASTER_IMAGE_TYPES.has(type);
    if (this.scanImage && seen.length > 0) this.scan(seen);
  }

  /** Looks for the markers in this chunk, including any that straddle the previous one. */
  private scan(chunk: Buffer): void {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const lower = toLower(data);
    for (const marker of TEXT_MARKERS) {
      if (lower.indexOf(marker) !== -1) throw StorageErrors.embeddedContent();
    }
    for (const first of BINARY_MARKER_FIRST_BYTES) {
      for (
        let at = data.indexOf(first);
        at !== -1 && at <= data.length - 8;
        at = data.indexOf(first, at + 1)
      ) {
        if (BINARY_MARKERS.some((matches) => matches(data, at))) throw StorageErrors.embeddedContent();
      }
    }
    this.carry = Buffer.from(data.subarray(Math.max(0, data.length - LONGEST_MARKER)));
  }

  /**
   * Formats with a fixed ending must end there: bytes after PNG's IEND, GIF's trailer or outside
   * WebP's RIFF length are a second file riding along. (JPEG is exempt: phones append their own
   * trailers after EOI; those bytes were scanned above.)
   */
  private checkEnd(): void {
    const tail = this.carry;
    const ends = (bytes: number[]) =>
      tail.length >= bytes.length && bytes.every((byte, i) => tail[tail.length - bytes.length + i] === byte);
    switch (this.sniffed) {
      case 'image/png':
      case 'image/apng':
        if (!ends([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])) {
          throw StorageErrors.embeddedContent();
        }
        break;
      case 'image/gif':
        // GIF89a/*…*/=…; is the classic GIF/JavaScript polyglot: the comment opens in the width field.
        if (!ends([0x3b]) || (this.firstBytes[6] === 0x2f && this.firstBytes[7] === 0x2a)) {
          throw StorageErrors.embeddedContent();
        }
        break;
      case 'image/webp':
        if (this.firstBytes.length < 8 || this.firstBytes.readUInt32LE(4) + 8 !== this.size) {
          throw StorageErrors.embeddedContent();
        }
        break;
      default:
        break;
    }
  }
}
