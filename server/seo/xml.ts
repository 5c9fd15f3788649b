/** Whether a character may appear in an XML 1.0 document (tab, newline and carriage return among controls). */
function allowedInXml(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  return code !== 0xfffe && code !== 0xffff;
}

/** Text that is safe in XML text and attribute values; characters XML cannot hold are dropped. */
export function escapeXml(text: string): string {
  return [...text]
    .filter(allowedInXml)
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}
