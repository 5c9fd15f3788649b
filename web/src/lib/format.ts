/**
 * English (en-US) numbers and dates for what the public pages show as they load, without `Intl`
 * (decision 162). A page's first use of `Intl` (or of `toLocaleString`, or `localeCompare`) costs the
 * browser 15–40 ms of ICU set-up on the main thread, measured in Chromium on the bench machine, in one
 * task it cannot split: more than any other single piece of a public page's start. The text is the same
 * as the `Intl` calls these replace give; `format.test.ts` compares them over many values.
 * Everything else (admin screens, a member's own pages) may use `Intl` freely.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Adds one to a string of decimal digits ("0999" → "1000"). */
function incrementDigits(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/**
 * `value` with exactly `digits` decimals and thousands separators: what
 * `new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })`
 * gives. Rounds the shortest decimal form of the number half away from zero, as ICU does (1.005 → "1.01",
 * where `toFixed` gives "1.00").
 */
export function formatFixed(value: number, digits: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const negative = value < 0 || Object.is(value, -0);
  const shortest = String(Math.abs(value));
  // Beyond what a price or an index reaches (1e21 and up): leave it to Intl.
  if (shortest.includes('e') && Math.abs(value) >= 1) {
    return new Intl.NumberFormat('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  }
  // Tiny numbers (below 1e-6) print with an exponent: zero at up to five decimals, else Intl's.
  if (shortest.includes('e') && digits > 5) {
    return new Intl.NumberFormat('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  }
  const [whole = '0', fraction = ''] = shortest.includes('e') ? ['0', ''] : shortest.split('.');
  let kept = `${whole}${fraction.slice(0, digits).padEnd(digits, '0')}`;
  if ((fraction[digits] ?? '0') >= '5') kept = incrementDigits(kept);
  const integer = kept.slice(0, kept.length - digits) || '0';
  const decimals = kept.slice(kept.length - digits);
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${digits > 0 ? `.${decimals}` : ''}`;
}

/** "1,234.5": up to three decimals, as `new Intl.NumberFormat('en-US').format` gives (a chart's axis). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return formatFixed(value, 0);
  return formatFixed(value, 3).replace(/\.?0+$/, '');
}

/** "Nov 26, 2026" in local time: `Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })`. */
export function formatShortDate(date: Date): string {
  return `${MONTHS[date.getMonth()]?.slice(0, 3)} ${date.getDate()}, ${date.getFullYear()}`;
}

/** "November 26, 2026" in local time: `{ month: 'long', day: 'numeric', year: 'numeric' }`. */
export function formatLongDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/**
 * "Thursday, November 26, 2026 at 3:04 PM" in local time:
 * `Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' })`.
 */
export function formatFullDateTime(date: Date): string {
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const time = `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${WEEKDAYS[date.getDay()]}, ${formatLongDate(date)} at ${time}`;
}
