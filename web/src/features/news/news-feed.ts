/**
 * The news page's rules, without React (product §news): what the URL keeps, how a page of the feed
 * continues, how a time reads, how search matches are marked.
 */
import { formatFullDateTime, formatShortDate } from '#web/lib/format.ts';

export type NewsSort = 'newest' | 'relevance';

export interface NewsFilters {
  /** Search text ('' for none). */
  q: string;
  /** A source category, 'Team' for the team's posts, or null for everything. */
  category: string | null;
  sort: NewsSort;
}

export const SEARCH_MAX_LENGTH = 200;
export const PAGE_SIZE = 20;
export const TEAM_CATEGORY = 'Team';

export function filtersFromSearch(params: URLSearchParams): NewsFilters {
  const q = (params.get('q') ?? '').slice(0, SEARCH_MAX_LENGTH);
  const category = params.get('category')?.slice(0, 40) || null;
  const sort: NewsSort = params.get('sort') === 'relevance' && q.trim() !== '' ? 'relevance' : 'newest';
  return { q, category, sort };
}

/** The URL's query for filters: only what differs from the defaults. */
export function searchFromFilters(filters: NewsFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim() !== '') params.set('q', filters.q.trim());
  if (filters.category) params.set('category', filters.category);
  if (filters.sort === 'relevance' && filters.q.trim() !== '') params.set('sort', 'relevance');
  return params;
}

export interface AlsoReported {
  source_name: string;
  url: string;
}

/** One card: an article, or a post by the team (no outside link). */
export interface NewsEntry {
  kind: 'article' | 'post';
  id: string;
  title: string;
  url: string | null;
  summary: string | null;
  image_url: string | null;
  source_name: string;
  category: string;
  published_at: string;
  is_sample: boolean;
  also_reported_by: AlsoReported[];
  title_highlight: string;
  summary_highlight: string | null;
  rank: number;
}

/** Where the next page starts: after the last entry of this one. */
export interface NewsCursor {
  p_before_at: string;
  p_before_id: string;
  p_before_rank: number | null;
}

export function nextCursor(page: NewsEntry[], sort: NewsSort): NewsCursor | undefined {
  if (page.length < PAGE_SIZE) return undefined;
  const last = page[page.length - 1];
  if (!last) return undefined;
  return {
    p_before_at: last.published_at,
    p_before_id: last.id,
    p_before_rank: sort === 'relevance' ? last.rank : null,
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "2 h ago", "3 d ago", then the date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`;
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)} d ago`;
  return formatShortDate(new Date(time));
}

export function fullDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : formatFullDateTime(date);
}

/** The text split into plain and matched parts (the feed marks matches with U+E000 … U+E001). */
export function highlightParts(text: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [index, chunk] of text.split('\uE000').entries()) {
    if (index === 0) {
      if (chunk) parts.push({ text: chunk, match: false });
      continue;
    }
    const [matched = '', rest = ''] = chunk.split('\uE001');
    if (matched) parts.push({ text: matched, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}

/** A published team post's own page (issue 34 item 4): the feed's cards and the home page link to it. */
export function postPath(id: string): string {
  return `/news/posts/${id}`;
}
