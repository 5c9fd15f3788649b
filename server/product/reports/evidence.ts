import { Readable } from 'node:stream';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import type { Database } from '../../db/driver.ts';
import type { FunctionCaller } from '../../functions/http.ts';
import type { StorageService } from '../../functions/platform.ts';
import { ApiError } from '../../http/errors.ts';
import { evidenceSlot, markEvidenceCleaned } from './db.ts';

/**
 * Evidence files of scammer reports lose their metadata on the way in (issue 32, decision 199). The
 * reporter's slot (a scammer_report_evidence row, counted by the database) is checked as the reporter;
 * the file is re-encoded in memory — images without EXIF, XMP, GPS, ICC profiles or comments (the
 * orientation applied to the pixels), PDFs rebuilt from their pages without the Info dictionary or
 * XMP streams — and only that copy is stored, as the service (reporters have no insert policy on the
 * bucket any more). Then the row's cleaned_at is set, which approval requires. The original is never
 * stored anywhere.
 */

export const EVIDENCE_BUCKET = 'scammer-evidence';
/** The bucket's limit (5 MB, as its file_size_limit): larger bodies are refused while read. */
export const EVIDENCE_MAX_BYTES = 5 * 1024 * 1024;
/** An image larger than this many pixels is refused rather than decoded (about 40 megapixels). */
const MAX_PIXELS = 40_000_000;
/** libvips stops an encode that takes longer than this. */
const IMAGE_TIMEOUT_SECONDS = 20;

export const EvidenceErrors = {
  invalidObjectName: () =>
    new ApiError(
      400,
      'invalid_object_name',
      'object_name must name an evidence slot: <report id>/<uuid>.<ext>',
    ),
  slotClosed: () =>
    new ApiError(
      403,
      'evidence_slot_closed',
      'This file cannot be attached: the report is not yours, is no longer submitted, or the file slot does not exist.',
    ),
  alreadyUploaded: () =>
    new ApiError(409, 'evidence_exists', 'This evidence file has already been uploaded.'),
  empty: () => new ApiError(400, 'evidence_empty', 'The file is empty.'),
  tooLarge: () => new ApiError(413, 'payload_too_large', 'File size too large. Maximum size is 5MB.'),
  mismatch: () =>
    new ApiError(
      415,
      'evidence_content_mismatch',
      'The file content does not match its type: upload a JPEG, PNG, WebP or GIF image, or a PDF.',
    ),
  unreadable: (what: 'image' | 'PDF') =>
    new ApiError(
      422,
      'evidence_unreadable',
      what === 'PDF'
        ? 'This PDF could not be read (it may be damaged, password-protected or encrypted). Upload an unprotected copy.'
        : 'This image could not be read (it may be damaged, or too large at over 40 megapixels).',
    ),
};

const IMAGE_FORMATS: Record<string, 'jpeg' | 'png' | 'webp' | 'gif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The evidence types the bucket accepts, by the extension the slot's name carries. */
const TYPE_OF_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

const OBJECT_NAME = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\.(jpg|png|webp|gif|pdf)$/;

/** The stored type of a slot's object name, or undefined for a name no slot can have. */
export function evidenceType(objectName: string): string | undefined {
  const match = OBJECT_NAME.exec(objectName);
  return match ? TYPE_OF_EXTENSION[match[1] as string] : undefined;
}

/** Re-encodes an image without any of its metadata; the EXIF orientation is applied to the pixels. */
async function cleanImage(bytes: Buffer, format: 'jpeg' | 'png' | 'webp' | 'gif'): Promise<Buffer> {
  let found: string | undefined;
  try {
    found = (await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata()).format;
  } catch {
    // Not an image sharp can read: checked below against the declared type.
  }
  if (found === undefined) {
    if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') throw EvidenceErrors.mismatch();
    throw EvidenceErrors.unreadable('image');
  }
  if (found !== format) throw EvidenceErrors.mismatch();
  try {
    // sharp writes no metadata unless asked (withMetadata/keepExif/keepIccProfile): the output has no
    // EXIF, XMP, ICC profile, PNG text chunks or comments. rotate() applies the EXIF orientation first.
    const image = sharp(bytes, {
      limitInputPixels: MAX_PIXELS,
      animated: format === 'gif' || format === 'webp',
    })
      .rotate()
      .timeout({ seconds: IMAGE_TIMEOUT_SECONDS });
    switch (format) {
      case 'jpeg':
        return await image.jpeg({ quality: 92, mozjpeg: true }).toBuffer();
      case 'png':
        return await image.png({ compressionLevel: 9 }).toBuffer();
      case 'webp':
        return await image.webp({ quality: 92 }).toBuffer();
      case 'gif':
        return await image.gif().toBuffer();
    }
  } catch {
    throw EvidenceErrors.unreadable('image');
  }
}

/**
 * Rebuilds a PDF from its pages alone: a new document (no Info dictionary: author, creator, producer,
 * title, subject, keywords, dates; no catalogue XMP stream, no outline or attachments) with copies of
 * the pages, each without its own XMP stream and application data. Only objects the pages reach are
 * written, so no earlier revision's metadata survives as an unreferenced object.
 */
async function cleanPdf(bytes: Buffer): Promise<Buffer> {
  if (bytes.subarray(0, 1024).indexOf('%PDF-') === -1) throw EvidenceErrors.mismatch();
  try {
    const source = await PDFDocument.load(bytes, { updateMetadata: false });
    const cleaned = await PDFDocument.create({ updateMetadata: false });
    const pages = await cleaned.copyPages(source, source.getPageIndices());
    for (const page of pages) {
      page.node.delete(PDFName.of('Metadata'));
      page.node.delete(PDFName.of('PieceInfo'));
      cleaned.addPage(page);
    }
    if (cleaned.getPageCount() === 0) throw new Error('no pages');
    return Buffer.from(await cleaned.save());
  } catch {
    throw EvidenceErrors.unreadable('PDF');
  }
}

/** The file as it may be stored: re-encoded without metadata, or refused with a reason. */
export async function cleanEvidence(bytes: Buffer, contentType: string): Promise<Buffer> {
  if (bytes.length === 0) throw EvidenceErrors.empty();
  if (bytes.length > EVIDENCE_MAX_BYTES) throw EvidenceErrors.tooLarge();
  if (contentType === 'application/pdf') return cleanPdf(bytes);
  const format = IMAGE_FORMATS[contentType];
  if (!format) throw EvidenceErrors.mismatch();
  return cleanImage(bytes, format);
}

export interface EvidenceDeps {
  db: Database;
  storage: StorageService;
}

const SERVICE_CALLER = {
  scope: { role: 'service_role' as const, claims: { role: 'service_role' } },
  owner: undefined,
};

/**
 * Stores a reporter's evidence file, cleaned, in its slot: the slot checked as the reporter (their own
 * submitted report, no file yet), the cleaned copy stored as the service, the row marked cleaned.
 */
export async function receiveEvidence(
  deps: EvidenceDeps,
  caller: FunctionCaller,
  objectName: string,
  bytes: Buffer,
): Promise<{ object_name: string; content_type: string; size: number }> {
  const contentType = evidenceType(objectName);
  if (!contentType) throw EvidenceErrors.invalidObjectName();
  const slot = await deps.db.withScope(caller.scope, (tx) => evidenceSlot(tx, objectName));
  if (!slot?.open || slot.content_type !== contentType) throw EvidenceErrors.slotClosed();
  if (slot.cleaned) throw EvidenceErrors.alreadyUploaded();
  const cleaned = await cleanEvidence(bytes, contentType);
  const plan = await deps.storage.prepareUpload(SERVICE_CALLER, {
    bucketId: EVIDENCE_BUCKET,
    name: objectName,
    upsert: false,
    declaredLength: cleaned.length,
  });
  await deps.storage.upload(SERVICE_CALLER, plan, {
    stream: Readable.from([cleaned]),
    contentType,
    cacheControl: 'max-age=3600',
    userMetadata: null,
  });
  await deps.db.withScope(SERVICE_CALLER.scope, (tx) => markEvidenceCleaned(tx, objectName));
  return { object_name: objectName, content_type: contentType, size: cleaned.length };
}
