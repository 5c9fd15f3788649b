/**
 * Evidence files of a scammer report (issue 19, decision 141): up to 5 images or PDFs, spec §5's file
 * rules checked in the browser for a quick answer; the storage service checks size, type and the bytes
 * again (file-type), and the database counts the files.
 */
export const EVIDENCE_BUCKET = 'scammer-evidence';
export const EVIDENCE_MAX_FILES = 5;
/** The general limit (design.md §4: one constant, 5 MB), as the bucket's file_size_limit. */
export const EVIDENCE_MAX_BYTES = 5 * 1024 * 1024;
export const EVIDENCE_MIN_BYTES = 100;
/** How long a reader's link to a file works. */
export const EVIDENCE_URL_SECONDS = 120;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};
export const EVIDENCE_ACCEPT = Object.keys(EXTENSIONS).join(',');

const SUSPICIOUS =
  /\.(php\d?|phtml|js|mjs|html?|xhtml|svg|asp|aspx|jsp|exe|bat|cmd|sh|ps1|scr|vbs|jar|com|pif|msi|dll|cgi|pl|py)$/i;

const INNER_EXTENSION =
  /^(php\d?|phtml|m?js|html?|xhtml|svg|aspx?|jsp|exe|bat|cmd|sh|ps1|scr|vbs|jar|com|pif|msi|dll|pdf|png|jpe?g|gif|webp|zip|rar|7z|docx?|txt)$/i;

/** Spec §5's message for what is wrong with a file, or null when it may be uploaded. */
export function evidenceProblem(file: { name: string; type: string; size: number }): string | null {
  if (file.name.includes('\0')) return 'Invalid filename characters detected.';
  if (file.name.length > 255) return 'Filename too long.';
  if (SUSPICIOUS.test(file.name)) return 'Suspicious file extension detected.';
  const parts = file.name.split('.');
  // "photo.php.png", "scan.pdf.exe"; not "Screenshot at 10.15.png".
  if (parts.length > 2 && parts.slice(1, -1).some((part) => INNER_EXTENSION.test(part))) {
    return 'Double file extensions are not allowed.';
  }
  if (!(file.type in EXTENSIONS)) {
    return 'File type not allowed. Only JPEG, PNG, WebP, GIF and PDF files are permitted.';
  }
  if (file.size > EVIDENCE_MAX_BYTES) return 'File size too large. Maximum size is 5MB.';
  if (file.size < EVIDENCE_MIN_BYTES) return 'File size too small. Minimum size is 100 bytes.';
  return null;
}

/** Where a file of a report is stored: the report's folder and a random name (never the reporter's id). */
export function evidenceObjectName(
  reportId: string,
  type: string,
  random: string = crypto.randomUUID(),
): string {
  return `${reportId}/${random}.${EXTENSIONS[type] ?? 'bin'}`;
}

/** Adds picked files to the chosen ones, up to the limit; says what was left out, and why. */
export function addEvidence<T extends { name: string; type: string; size: number }>(
  chosen: readonly T[],
  picked: readonly T[],
): { files: T[]; problem: string | null } {
  const files = [...chosen];
  const problems: string[] = [];
  for (const file of picked) {
    const wrong = evidenceProblem(file);
    if (wrong) {
      problems.push(`${file.name}: ${wrong}`);
      continue;
    }
    if (files.length >= EVIDENCE_MAX_FILES) {
      problems.push(`You can attach up to ${EVIDENCE_MAX_FILES} files.`);
      break;
    }
    files.push(file);
  }
  return { files, problem: problems.length > 0 ? problems.join(' ') : null };
}
