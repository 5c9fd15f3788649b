import { StorageErrors } from './errors.ts';
import { hasControlCharacters } from './text.ts';

/**
 * Which bucket ids and object names the service accepts (decision 043). Names never reach a file
 * system path or an object-store key (blobs are stored under their version id), so these rules
 * protect the clients and the URLs, not the disk: a name must survive being put into a URL by
 * storage-js unencoded, be shown in a page, and be matched by policies segment by segment.
 */

export const MAX_NAME_LENGTH = 1024;
/** Product §image-rules: "Filename too long." above 255 characters (per path segment). */
export const MAX_SEGMENT_LENGTH = 255;

// Bucket ids: Supabase's character set (storage-js `isValidBucketName`), 1 to 100 characters.
const BUCKET_ID = /^[A-Za-z0-9_!.*'() &$@=;:+,?-]{1,100}$/;
/**
 * Path words of this API: a bucket with one of these ids would be shadowed by a route
 * (/object/public/..., /object/sign/...), so none may be created.
 */
const RESERVED_BUCKET_IDS = new Set([
  'authenticated',
  'public',
  'sign',
  'upload',
  'info',
  'list',
  'move',
  'copy',
]);

// Object names: any printable Unicode (letters of every script, digits, spaces, dashes, symbols)
// except what breaks or disguises a URL or a page: `?` and `#` (storage-js puts names into URLs
// unencoded), `%` (double decoding), `\`, quotes and markup characters, and the invisible format
// characters that can reverse how a name reads (U+202E makes "avatar\u202Egnp.exe" read as "avatarexe.png").
const FORBIDDEN_NAME_CHARS = /[\\?#%"<>`{}|^[\]\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/**
 * Extensions that are never an image's and that a server or a browser may execute or render
 * (product §image-rules "Suspicious file extension detected.": php, js, html, asp, jsp, exe, bat, cmd, sh,
 * ps1, scr, vbs, jar, com, pif "and similar").
 */
export const SUSPICIOUS_EXTENSIONS = new Set([
  'php',
  'php3',
  'php4',
  'php5',
  'php7',
  'phtml',
  'phar',
  'pht',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'html',
  'htm',
  'xhtml',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'asp',
  'aspx',
  'asa',
  'cer',
  'ashx',
  'jsp',
  'jspx',
  'exe',
  'dll',
  'msi',
  'bat',
  'cmd',
  'sh',
  'bash',
  'zsh',
  'ps1',
  'psm1',
  'scr',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'hta',
  'jar',
  'war',
  'com',
  'pif',
  'cgi',
  'pl',
  'py',
  'rb',
  'lnk',
  'reg',
  'htaccess',
  'swf',
]);

export function validateBucketId(id: unknown): string {
  if (typeof id !== 'string' || !BUCKET_ID.test(id) || id.trim() !== id || RESERVED_BUCKET_IDS.has(id)) {
    throw StorageErrors.invalidBucketName();
  }
  return id;
}

/** A bucket id from a URL: anything malformed simply names no bucket. */
export function bucketIdOrNotFound(id: unknown): string {
  if (typeof id !== 'string' || !BUCKET_ID.test(id)) throw StorageErrors.noSuchBucket();
  return id;
}

/** The rules for every object name, in every bucket. */
export function validateObjectName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) throw StorageErrors.invalidKey(String(name ?? ''));
  if (hasControlCharacters(name))
    throw StorageErrors.invalidFileName('Invalid filename characters detected.');
  const segments = name.split('/');
  for (const segment of segments) {
    if ([...segment].length > MAX_SEGMENT_LENGTH) throw StorageErrors.invalidFileName('Filename too long.');
  }
  if (
    name.length > MAX_NAME_LENGTH ||
    FORBIDDEN_NAME_CHARS.test(name) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw StorageErrors.invalidKey(name);
  }
  return name;
}

/**
 * The extra rules of product §image-rules for buckets that hold only images: the file name (last segment) has
 * at most one extension, and none of its dot-separated parts is an executable or markup extension —
 * so `photo.php.png`, `x.html` and `avatar.png.exe` are refused while `avatar-1700000000000.png`
 * passes.
 */
export function validateImageFileName(name: string): void {
  const fileName = name.slice(name.lastIndexOf('/') + 1);
  const parts = fileName.toLowerCase().split('.');
  if (parts.slice(1).some((part) => SUSPICIOUS_EXTENSIONS.has(part.trim()))) {
    throw StorageErrors.invalidFileName('Suspicious file extension detected.');
  }
  if (parts.length > 2) throw StorageErrors.invalidFileName('Double file extensions are not allowed.');
}
