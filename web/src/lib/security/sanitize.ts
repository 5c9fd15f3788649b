/**
 * Product §text-cleaning: removes < > ' " & and backtick, and the prefixes javascript:, data: and
 * vbscript: (in any case, wherever they appear, repeatedly, so "javajavascript:script:" cannot
 * reassemble). The database refuses report text that still holds any of them
 * (private.has_unsanitised_text), so what this leaves is what the server accepts.
 */
const CHARACTERS = /[<>'"&`]/g;
const PREFIXES = /(javascript|data|vbscript):/gi;

export function sanitizeText(value: string): string {
  let text = value.replace(CHARACTERS, '');
  for (;;) {
    const next = text.replace(PREFIXES, '');
    if (next === text) return text;
    text = next;
  }
}
