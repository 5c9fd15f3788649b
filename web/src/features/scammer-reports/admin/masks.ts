/**
 * Masked spans of a report's free text, the name and the contact details (decisions 197, 209, 240):
 * public.scammer_report_masks. The database proposes spans in every one of them (phone numbers, emails,
 * street addresses); the reviewer keeps or unmasks each, and masks more by hand. Spans count
 * characters as the database does (Unicode code points, from 0, end excluded), not JavaScript's UTF-16
 * units: an emoji is one character.
 */
export const MASKABLE_FIELDS = [
  ['scammer_description', 'Description'],
  ['incident_details', 'Incident details'],
  ['location', 'Location'],
  ['business_name', 'Business name'],
  ['contact_info', 'Contact details'],
  ['scammer_name', 'Name'],
] as const;
export type MaskableField = (typeof MASKABLE_FIELDS)[number][0];

export const MASK_PLACEHOLDER = '[removed by the reviewers]';

export interface Mask {
  id: string;
  field: MaskableField;
  start_at: number;
  end_at: number;
  kind: 'manual' | 'phone' | 'email' | 'address';
  state: 'proposed' | 'masked' | 'unmasked';
}

export const KIND_LABELS: Record<Mask['kind'], string> = {
  manual: 'Masked by a reviewer',
  phone: 'Phone number',
  email: 'Email address',
  address: 'Street address',
};

/** The characters of a text, as the database counts them. */
export function characters(text: string): string[] {
  return Array.from(text);
}

/** A UTF-16 offset (a textarea's selection) as a character offset. */
export function characterOffset(text: string, utf16: number): number {
  return Array.from(text.slice(0, utf16)).length;
}

/**
 * The span a reviewer gives by its first and last characters (counted from 1, the last one masked too), as
 * the database stores it (from 0, end excluded); or what is wrong with the numbers, at the field concerned.
 */
export function readSpan(
  first: string,
  last: string,
): { start_at: number; end_at: number } | { problems: { startAt?: string; endAt?: string } } {
  const from = Number(first);
  const to = Number(last);
  if (!Number.isInteger(from) || from < 1) {
    return {
      problems: { startAt: 'Select the characters to mask, or give the first one as a number from 1.' },
    };
  }
  if (!Number.isInteger(to) || to < from) {
    return { problems: { endAt: 'Give the last character to mask: a number no smaller than the first.' } };
  }
  return { start_at: from - 1, end_at: to };
}

/** The characters a span covers. */
export function spanText(text: string, mask: Pick<Mask, 'start_at' | 'end_at'>): string {
  return characters(text).slice(mask.start_at, mask.end_at).join('');
}

/** A field's text as readers get it (the readers' view does the same): every span not unmasked replaced. */
export function maskedText(text: string, masks: readonly Mask[], field: MaskableField): string {
  const chars = characters(text);
  const spans = masks
    .filter((mask) => mask.field === field && mask.state !== 'unmasked' && mask.end_at <= chars.length)
    .sort((a, b) => b.start_at - a.start_at);
  for (const mask of spans) chars.splice(mask.start_at, mask.end_at - mask.start_at, MASK_PLACEHOLDER);
  return chars.join('');
}

/** A field's text cut into pieces, each plain or inside a span (for the reviewer's marked view). */
export function pieces(
  text: string,
  masks: readonly Mask[],
  field: MaskableField,
): { text: string; mask: Mask | null }[] {
  const chars = characters(text);
  const spans = masks
    .filter((mask) => mask.field === field && mask.end_at <= chars.length)
    .sort((a, b) => a.start_at - b.start_at);
  const out: { text: string; mask: Mask | null }[] = [];
  let at = 0;
  for (const mask of spans) {
    // Unmasked spans may overlap others: a later span starting inside an earlier one is skipped.
    if (mask.start_at < at) continue;
    if (mask.start_at > at) out.push({ text: chars.slice(at, mask.start_at).join(''), mask: null });
    out.push({ text: chars.slice(mask.start_at, mask.end_at).join(''), mask });
    at = mask.end_at;
  }
  if (at < chars.length) out.push({ text: chars.slice(at).join(''), mask: null });
  return out;
}
