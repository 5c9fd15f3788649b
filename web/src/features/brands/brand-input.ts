/**
 * What the brand forms' text fields become in their columns (admin › Brands, the brand page's claim and
 * edit forms). The fields hold what was typed; these run once, on saving.
 */

/** A trimmed value, or null for an empty field (the column is optional). */
export const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** One entry per non-empty line (social links). */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** "ca, OR," → ["CA", "OR"]: two-letter state codes, comma-separated. */
export const statesOf = (text: string): string[] =>
  text
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);

/** A brand's address made from its name: lower-case letters, digits and single hyphens, at most 80. */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

/** Today's date (YYYY-MM-DD, UTC): the latest a check may be dated. */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** A check's day as its column stores it: noon UTC, so the day reads the same everywhere. */
export const noonOf = (day: string): string => `${day}T12:00:00Z`;

/** When a licence was checked: never while unverified; otherwise the date given, or today's. */
export const checkedAtOf = (verification: string, checkedAt: string, day: string): string | null =>
  verification === 'unverified' ? null : checkedAt || noonOf(day);
