import { getConfig } from '#web/lib/config.ts';
import { IMAGE_EXTENSIONS, SNIFF_BYTES, sniffImageFormat } from '#web/lib/image-file.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { uploadPublicFile } from '#web/lib/upload-with-progress.ts';

/**
 * Brand logos in the public brand-logos bucket, under the brand's id (decision 151). The bucket holds
 * the same rules (2 MB, JPEG/PNG/WebP/GIF, bytes checked against the type, no SVG); these checks only
 * spare a pointless upload and say why in the words of product §input-rules.
 */
export const LOGO_BUCKET = 'brand-logos';
/** 2 MB: a logo is small; the bucket's file_size_limit is the same number. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

export const LOGO_TYPE_TEXT = 'File type not allowed. Only JPEG, PNG, WebP, and GIF files are permitted.';
export const LOGO_SIZE_TEXT = 'File size too large. Maximum size is 2MB.';
export const LOGO_CONTENT_TEXT = 'File content does not match declared type.';

/** Why this file cannot be a logo (type, size, then what its first bytes are), or null. */
export function logoFileProblem(
  file: { type: string; size: number },
  head: Uint8Array | null,
): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return LOGO_TYPE_TEXT;
  if (file.size > LOGO_MAX_BYTES) return LOGO_SIZE_TEXT;
  if (head) {
    const format = sniffImageFormat(head);
    if (!format || `image/${format}` !== file.type) return LOGO_CONTENT_TEXT;
  }
  return null;
}

export async function inspectLogoFile(file: File): Promise<string | null> {
  const early = logoFileProblem(file, null);
  if (early) return early;
  return logoFileProblem(file, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
}

/** The public address prefix of a brand's stored logos. */
function storedPrefix(brandId: string): string {
  return `${getConfig().supabaseUrl.replace(/\/+$/, '')}/storage/v1/object/public/${LOGO_BUCKET}/${brandId}/`;
}

/** The object path of a logo stored for this brand, or null for an outside https address. */
export function storedLogoPath(url: string | null, brandId: string): string | null {
  if (!url) return null;
  const prefix = storedPrefix(brandId);
  return url.startsWith(prefix) ? `${brandId}/${url.slice(prefix.length)}` : null;
}

/** Uploads a logo for the brand with progress; resolves to its public address. */
export function uploadBrandLogo(
  brandId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  const extension =
    IMAGE_EXTENSIONS[file.type.replace('image/', '') as keyof typeof IMAGE_EXTENSIONS] ?? 'png';
  return uploadPublicFile(LOGO_BUCKET, `${brandId}/logo-${Date.now()}.${extension}`, file, onProgress);
}

/** Removes a stored logo that the brand no longer shows (best effort: a leftover file harms nobody). */
export async function removeStoredLogo(url: string | null, brandId: string): Promise<void> {
  const path = storedLogoPath(url, brandId);
  if (!path) return;
  const supabase = await loadSupabase();
  await supabase.storage.from(LOGO_BUCKET).remove([path]);
}
