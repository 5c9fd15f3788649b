/**
 * Checks of a picked image file (product §avatar). The browser's `type` comes from the file name's
 * extension, so a text file renamed `.png` claims to be `image/png`; the first bytes say what the file
 * really is. The storage service sniffs uploads too (decision 044): this check only spares the member
 * a pointless upload and gives them the spec's message.
 */

/** 5 MB (product §avatar). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Image formats the user-uploads bucket accepts, recognised by their leading bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

export const IMAGE_EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
};

/** How many leading bytes `sniffImageFormat` needs. */
export const SNIFF_BYTES = 12;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image format the bytes start with, or null for anything else. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

export type ImageCheck =
  | { ok: true; format: ImageFormat }
  | { ok: false; title: 'Invalid file type'; description: 'Please select an image file.' }
  | { ok: false; title: 'File too large'; description: 'Please select an image smaller than 5MB.' };

const INVALID_TYPE = {
  ok: false,
  title: 'Invalid file type',
  description: 'Please select an image file.',
} as const;

const TOO_LARGE = {
  ok: false,
  title: 'File too large',
  description: 'Please select an image smaller than 5MB.',
} as const;

/**
 * Product §avatar in its order: the declared type must start with image/, the size must be at most 5 MB, and
 * (beyond the spec) the leading bytes must be a JPEG, PNG, WebP or GIF.
 */
export function checkAvatarFile(file: { type: string; size: number }, head: Uint8Array): ImageCheck {
  if (!file.type.startsWith('image/')) return INVALID_TYPE;
  if (file.size > AVATAR_MAX_BYTES) return TOO_LARGE;
  const format = sniffImageFormat(head);
  if (!format) return INVALID_TYPE;
  return { ok: true, format };
}

/** Reads the first bytes of a file and checks it (see `checkAvatarFile`). */
export async function inspectAvatarFile(file: File): Promise<ImageCheck> {
  // Type and size first: no need to read a file that is refused anyway.
  const early = checkAvatarFile(file, new Uint8Array([0xff, 0xd8, 0xff]));
  if (!early.ok) return early;
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return checkAvatarFile(file, head);
}
