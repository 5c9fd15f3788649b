/**
 * Pure helpers of the market index page (product §market-index): ranges, change, the CSV export
 * (safe to open in a spreadsheet), units, and the small Markdown subset the methodology uses.
 */
import { formatFixed } from '#web/lib/format.ts';

export type RangeKey = '1M' | '3M' | 'YTD' | '1Y' | 'All';
export const RANGES: readonly RangeKey[] = ['1M', '3M', 'YTD', '1Y', 'All'];

export function isRange(value: string | null): value is RangeKey {
  return value !== null && (RANGES as readonly string[]).includes(value);
}

export interface IndexPoint {
  date: string;
  value: number;
  source: string;
  as_of: string;
  revision: number;
  carried: boolean;
  detail: string | null;
  is_sample: boolean;
}

/** The first date (YYYY-MM-DD) a range shows, counted back from the index's latest date; null for All. */
export function rangeStart(range: RangeKey, latest: string): string | null {
  if (range === 'All') return null;
  const [year, month, day] = latest.split('-').map(Number) as [number, number, number];
  if (range === 'YTD') return `${year}-01-01`;
  const months = range === '1M' ? 1 : range === '3M' ? 3 : 12;
  const start = new Date(Date.UTC(year, month - 1 - months, day));
  // 31 March minus one month is 3 March in Date arithmetic; clamp to the month's last day instead.
  if (start.getUTCMonth() !== (((month - 1 - months) % 12) + 12) % 12) start.setUTCDate(0);
  return start.toISOString().slice(0, 10);
}

/** The points of a range (points sorted by date). */
export function pointsInRange<T extends { date: string }>(points: readonly T[], range: RangeKey): T[] {
  const latest = points.at(-1)?.date;
  if (!latest) return [];
  const start = rangeStart(range, latest);
  return start === null ? [...points] : points.filter((point) => point.date >= start);
}

/** Change from the first to the last point shown: absolute and in percent. */
export function changeOver(
  points: readonly { value: number }[],
): { absolute: number; percent: number } | null {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || points.length < 2 || first.value === 0) return null;
  return { absolute: last.value - first.value, percent: ((last.value - first.value) / first.value) * 100 };
}

/** Grams per unit of the flower price units (1 lb = 453.59237 g, 1 oz = 28.349523125 g). */
export const GRAMS_PER_UNIT: Record<string, number> = {
  'USD/lb': 453.59237,
  'USD/oz': 28.349523125,
  'USD/g': 1,
};

export function usdPerGram(value: number, unit: string): number | null {
  const grams = GRAMS_PER_UNIT[unit];
  return grams === undefined ? null : value / grams;
}

/**
 * One CSV cell: quoted when it must be, and a cell a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or carriage return) prefixed with an apostrophe so it stays text.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null)[])[],
): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export function pointsCsv(slug: string, points: readonly IndexPoint[]): string {
  return toCsv(
    ['index', 'date', 'value', 'carried', 'revision', 'source', 'as_of', 'demonstration'],
    points.map((point) => [
      slug,
      point.date,
      point.value.toFixed(6),
      point.carried ? 'yes' : 'no',
      point.revision,
      point.source,
      point.as_of,
      point.is_sample ? 'yes (demonstration series, not market data)' : 'no',
    ]),
  );
}

/** "1,234.50": without Intl, whose set-up would be the home page's longest task (lib/format.ts). */
export function formatValue(value: number): string {
  return formatFixed(value, 2);
}

export function formatChange(change: { absolute: number; percent: number }): string {
  const sign = change.absolute > 0 ? '+' : change.absolute < 0 ? '−' : '';
  return `${sign}${formatValue(Math.abs(change.absolute))} (${sign}${Math.abs(change.percent).toFixed(2)}%)`;
}

// ---------------------------------------------------------------------------------------------------
// The methodology's Markdown: headings (##, ###), paragraphs, "- " lists, **bold**, *italic*, `code`.
// Parsed into a tree the page renders as React elements, so no HTML from the text ever reaches the DOM.
// ---------------------------------------------------------------------------------------------------

export type Inline = { kind: 'text' | 'strong' | 'em' | 'code'; text: string };
export type Block =
  | { kind: 'heading'; level: 2 | 3; inline: Inline[] }
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'list'; items: Inline[][] };

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) out.push({ kind: 'strong', text: match[1] });
    else if (match[2] !== undefined) out.push({ kind: 'em', text: match[2] });
    else out.push({ kind: 'code', text: match[3] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function parseMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
    paragraph = [];
    if (list) blocks.push({ kind: 'list', items: list.map(parseInline) });
    list = null;
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^(#{2,3})\s+(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: heading[1] === '##' ? 2 : 3,
        inline: parseInline(heading[2] ?? ''),
      });
    } else if (line.startsWith('- ')) {
      if (paragraph.length > 0) {
        blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
        paragraph = [];
      }
      list ??= [];
      list.push(line.slice(2));
    } else if (list && raw.startsWith('  ')) {
      // an indented continuation belongs to the last item (or, after a blank line, stands alone)
      list[list.length - 1] += ` ${line}`;
    } else {
      if (list) {
        blocks.push({ kind: 'list', items: list.map(parseInline) });
        list = null;
      }
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
