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

// ---------------------------------------------------------------------------------------------------
// Headlines (decision 206): the value with its as-of date, whether it is stale, and the change over a
// named range. The home page and the index page both compute theirs with `headlineOf`, from the same
// query (`getPoints(slug, range)`), so the same range gives the same figures on both.
// ---------------------------------------------------------------------------------------------------

export type IndexKind = 'equity' | 'flower';

/** The range the home page's headlines count their change over. */
export const HEADLINE_RANGE: RangeKey = '1Y';

/**
 * How often each kind of index normally gets a value, and after how long without one its latest value
 * is stale: a quarter for flower prices (quarterly points); four days for daily closes (a trading day,
 * plus a weekend and a holiday).
 */
export const NORMAL_INTERVAL: Record<IndexKind, { months: number; days: number; text: string }> = {
  equity: { months: 0, days: 4, text: 'a value every trading day' },
  flower: { months: 3, days: 0, text: 'a value every quarter' },
};

/** `date` (YYYY-MM-DD) plus months and days, as YYYY-MM-DD (month ends clamped). */
export function addToDate(date: string, months: number, days: number): string {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, 0)).getUTCDate();
  shifted.setUTCDate(Math.min(day, last) + days);
  return shifted.toISOString().slice(0, 10);
}

/** Today in UTC, YYYY-MM-DD. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** Whether a value dated `date` is older than its kind's normal interval on `today`. */
export function isStale(kind: IndexKind, date: string, today: string): boolean {
  const { months, days } = NORMAL_INTERVAL[kind];
  return today > addToDate(date, months, days);
}

/** The stale marker's sentence (`short`: for a small card, where the date is shown beside it). */
export function staleText(kind: IndexKind, date: string, short = false): string {
  return short
    ? `Stale: normally ${NORMAL_INTERVAL[kind].text}`
    : `Stale: no newer value since ${date.slice(0, 10)}; normally ${NORMAL_INTERVAL[kind].text}.`;
}

/** "over 1Y (since 2025-01-01)": a change figure's range, with the date it is counted from. */
export function rangeText(range: RangeKey, from: string): string {
  return range === 'All' ? `since the first value (${from})` : `over ${range} (since ${from})`;
}

export interface HeadlineFigures<T extends { date: string; value: number }> {
  last: T | null;
  change: { absolute: number; percent: number } | null;
  /** What the change is counted over, e.g. "over 1Y (since 2025-01-01)"; null without a change. */
  changeRange: string | null;
  stale: boolean;
}

/** The headline of an index from the points of one range (oldest first): one computation for every page. */
export function headlineOf<T extends { date: string; value: number }>(
  kind: IndexKind,
  points: readonly T[],
  range: RangeKey,
  today: string,
): HeadlineFigures<T> {
  const last = points.at(-1) ?? null;
  const change = changeOver(points);
  const first = points[0];
  return {
    last,
    change,
    changeRange: change && first ? rangeText(range, first.date) : null,
    stale: last !== null && isStale(kind, last.date, today),
  };
}

/** The regulator behind each state's flower prices (data/README.md). */
export const REGULATORS: Record<string, string> = {
  CO: 'Colorado Department of Revenue',
  OR: 'Oregon Liquor and Cannabis Commission (OLCC)',
  MI: 'Michigan Cannabis Regulatory Agency (CRA)',
  MA: 'Massachusetts Cannabis Control Commission (CCC)',
  IL: 'Illinois Department of Financial and Professional Regulation (IDFPR)',
};

/**
 * What a flower price point is (decision 206): "<regulator> figure as reported by <publication>", or,
 * when the source is the regulator's own release, "<regulator> figure, from <its release>". The
 * "(OLCC data)" tags of the sources are folded into the regulator's name.
 */
export function observationLabel(state: string, source: string): string {
  const regulator = REGULATORS[state];
  if (!regulator) return source;
  const short = regulator.replace(/ \(.*\)$/, '');
  if (source.startsWith(short)) return `${regulator} figure, from its own publication: ${source}`;
  const publication = source
    .replace(/ \((OLCC|CRA|CCC|IDFPR) data\)/, '')
    .replace(/\((OLCC|CRA|CCC|IDFPR) data; /, '(');
  return `${regulator} figure as reported by ${publication}`;
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
    ['index', 'date', 'value', 'carried', 'revision', 'source', 'detail', 'as_of', 'demonstration'],
    points.map((point) => [
      slug,
      point.date,
      point.value.toFixed(6),
      point.carried ? 'yes' : 'no',
      point.revision,
      point.source,
      // Which states made the point and their ratios, as the table shows it: the worked example
      // recomputes from this file (issue 35).
      point.detail,
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
