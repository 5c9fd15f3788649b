import { XMLValidator } from 'fast-xml-parser';
import type { FastifyBaseLogger } from 'fastify';
import { parseFeed } from 'feedsmith';
import sanitizeHtml from 'sanitize-html';
import { runAsServer } from '../../db/clients.ts';
import type { Database } from '../../db/driver.ts';
import { OutboundError, type OutboundOptions, safeGet } from '../../http/outbound.ts';
import {
  claimDueSources,
  ingestNewsItems,
  listNewsSources,
  type NewsSourceRow,
  recordNewsFetch,
} from './db.ts';

/**
 * Reading news feeds (product §news, decisions 112–113): fetch a source's feed safely
 * (server/http/outbound.ts), parse it with feedsmith (RSS 2.0, Atom 1.0, RSS 1.0/RDF, JSON Feed),
 * reduce each item to plain text and http(s) links, and hand the items to private.news_ingest, which
 * de-duplicates them and groups stories in one transaction.
 */

export interface NewsDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  fetch: Omit<OutboundOptions, 'etag' | 'lastModified' | 'signal'>;
  refreshMinutes: number;
  /** Aborted when the server shuts down: fetches in progress end at once. */
  shutdown: AbortController;
}

/** One item as private.news_ingest takes it. */
export interface NewsItem {
  guid: string | null;
  title: string;
  url: string;
  summary: string | null;
  image_url: string | null;
  author: string | null;
  published_at: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title: string | null;
  items: NewsItem[];
}

/** A feed that cannot be read, in words an admin can act on. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

const MAX_ITEMS = 500;
const TITLE_MAX = 500;
const SUMMARY_MAX = 600;
const AUTHOR_MAX = 200;
const URL_MAX = 2048;
/** Private-use characters the feed query uses to mark search matches; never kept from a feed. */
const MARKERS = /[\uE000\uE001]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** HTML (or text with entities) → plain text with single spaces, at most `max` characters. */
export function plainText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // Without "<" there is no markup and without "&" no entity: such text (most titles) needs no HTML
  // parser, only the clean-up below (the parser costs a few hundred µs a call; decision 114).
  if (!/[<&]/.test(value)) return clipped(value, max);
  // Block boundaries separate words in text: "<p>One</p><p>Two</p>" reads "One Two".
  const spaced = value.replace(
    /<\/?(?:p|div|br|li|ul|ol|h[1-6]|blockquote|tr|td|th|section|article|figure|figcaption|hr|pre|table)\b/gi,
    ' $&',
  );
  const text = sanitizeHtml(spaced, {
    allowedTags: [],
    allowedAttributes: {},
    // Their text is not prose: drop it along with the tag.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'svg', 'math'],
  })
    // sanitize-html leaves entities encoded in text; decode the common ones for plain text.
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return clipped(text, max);
}

/** Text without the search markers and control characters, single-spaced, at most `max` characters. */
function clipped(value: string, max: number): string | null {
  const text = value.replace(MARKERS, '').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** An absolute http(s) URL (resolved against the feed's address), else null. */
export function httpUrl(value: unknown, base: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    const text = url.toString();
    return text.length <= URL_MAX && !/\s/.test(text) ? text : null;
  } catch {
    return null;
  }
}

function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  // Years outside 1990–2100 are a feed's mistake; the time of the fetch stands in (news_ingest).
  if (date.getUTCFullYear() < 1990 || date.getUTCFullYear() > 2100) return null;
  return date.toISOString();
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string')
    return value.value;
  return undefined;
}

type Raw = Record<string, unknown>;
const asArray = (value: unknown): Raw[] => (Array.isArray(value) ? (value as Raw[]) : []);
const obj = (value: unknown): Raw => (value && typeof value === 'object' ? (value as Raw) : {});

function mediaImage(item: Raw, base: string): string | null {
  const media = obj(item.media);
  for (const thumb of asArray(media.thumbnails)) {
    const url = httpUrl(thumb.url, base);
    if (url) return url;
  }
  for (const content of asArray(media.contents)) {
    const type = typeof content.type === 'string' ? content.type : '';
    const medium = typeof content.medium === 'string' ? content.medium : '';
    if (type.startsWith('image/') || medium === 'image') {
      const url = httpUrl(content.url, base);
      if (url) return url;
    }
  }
  for (const enclosure of asArray(item.enclosures)) {
    if (typeof enclosure.type === 'string' && enclosure.type.startsWith('image/')) {
      const url = httpUrl(enclosure.url, base);
      if (url) return url;
    }
  }
  return null;
}

/** The first <img src> of an item's HTML, when it has no media element. */
function htmlImage(html: unknown, base: string): string | null {
  if (typeof html !== 'string') return null;
  const match = /<img\b[^>]*?\ssrc\s*=\s*["']([^"']+)["']/i.exec(html);
  return match ? httpUrl(match[1]?.replace(/&amp;/g, '&'), base) : null;
}

function item(
  fields: {
    guid?: unknown;
    title?: unknown;
    link?: unknown;
    summary?: unknown;
    html?: unknown;
    image?: unknown;
    author?: unknown;
    date?: unknown;
  },
  base: string,
): NewsItem | null {
  const url = httpUrl(fields.link, base);
  const title = plainText(fields.title, TITLE_MAX);
  if (!url || !title) return null;
  const guid =
    typeof fields.guid === 'string' && fields.guid.trim() !== '' ? fields.guid.trim().slice(0, 2048) : null;
  return {
    guid,
    title,
    url,
    summary: plainText(fields.summary ?? fields.html, SUMMARY_MAX),
    image_url:
      (typeof fields.image === 'string' ? httpUrl(fields.image, base) : null) ??
      htmlImage(fields.html ?? fields.summary, base),
    author: plainText(fields.author, AUTHOR_MAX),
    published_at: isoDate(fields.date),
  };
}

/**
 * Parses a feed document. XML that declares entities (external entities, entity expansion) is refused
 * before any parser sees it; so is a document that is not valid UTF-8 once decoded.
 */
export function parseFeedDocument(body: Buffer, base: string): ParsedFeed {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // Feeds in a declared legacy encoding (ISO-8859-1 / windows-1252) are read as windows-1252.
    const head = body.subarray(0, 200).toString('latin1');
    if (/encoding\s*=\s*["'](iso-8859-1|latin-?1|windows-1252|us-ascii)["']/i.test(head)) {
      source = new TextDecoder('windows-1252').decode(body);
    } else {
      throw new FeedError('the feed is not valid UTF-8 and declares no other supported encoding');
    }
  }
  if (/<!ENTITY/i.test(source)) throw new FeedError('the feed declares XML entities, which are refused');
  if (/<!DOCTYPE[^>]*\b(SYSTEM|PUBLIC)\b/i.test(source)) {
    throw new FeedError('the feed refers to an external document type, which is refused');
  }
  if (source.trimStart().startsWith('<')) {
    // feedsmith reads what it can of a broken document; a truncated feed must not pass for an empty one.
    const valid = XMLValidator.validate(source);
    if (valid !== true) {
      throw new FeedError(
        `the feed is not well-formed XML (line ${valid.err.line}: ${valid.err.msg.slice(0, 120)})`,
      );
    }
  }
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(source);
  } catch (error) {
    throw new FeedError(
      `the document is not a feed that can be read (${(error as Error).message.slice(0, 120)})`,
    );
  }
  const items: NewsItem[] = [];
  const push = (value: NewsItem | null) => {
    if (value && items.length < MAX_ITEMS) items.push(value);
  };
  const feed = parsed.feed as Raw;
  switch (parsed.format) {
    case 'rss':
      for (const raw of asArray(feed.items)) {
        const dc = obj(raw.dc);
        const authors = asArray(raw.authors);
        const creators = Array.isArray(dc.creators) ? dc.creators : [];
        push(
          item(
            {
              guid: obj(raw.guid).value,
              title: raw.title,
              link: raw.link ?? (obj(raw.guid).isPermaLink !== false ? obj(raw.guid).value : undefined),
              summary: raw.description,
              html: obj(raw.content).encoded,
              image: mediaImage(raw, base),
              author: authors[0]?.name ?? creators[0],
              date: raw.pubDate ?? (Array.isArray(dc.dates) ? dc.dates[0] : undefined),
            },
            base,
          ),
        );
      }
      break;
    case 'atom':
      for (const raw of asArray(feed.entries)) {
        const links = asArray(raw.links);
        const link = links.find((l) => !l.rel || l.rel === 'alternate') ?? links[0];
        const content = obj(raw.content);
        push(
          item(
            {
              guid: raw.id,
              title: text(raw.title),
              link: link?.href,
              summary: text(raw.summary),
              html: typeof content.value === 'string' ? content.value : undefined,
              image: mediaImage(raw, base),
              author: asArray(raw.authors)[0]?.name,
              date: raw.published ?? raw.updated,
            },
            base,
          ),
        );
      }
      break;
    case 'rdf':
      for (const raw of asArray(feed.items)) {
        const dc = obj(raw.dc);
        push(
          item(
            {
              guid: obj(raw.rdf).about,
              title: raw.title,
              link: raw.link,
              summary: raw.description,
              html: obj(raw.content).encoded,
              image: mediaImage(raw, base),
              author: Array.isArray(dc.creators) ? dc.creators[0] : undefined,
              date: Array.isArray(dc.dates) ? dc.dates[0] : undefined,
            },
            base,
          ),
        );
      }
      break;
    case 'json':
      for (const raw of asArray(feed.items)) {
        push(
          item(
            {
              guid: typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : undefined,
              title: raw.title,
              link: raw.url ?? raw.external_url,
              summary: raw.summary ?? raw.content_text,
              html: raw.content_html,
              image: raw.image ?? raw.banner_image,
              author: asArray(raw.authors)[0]?.name,
              date: raw.date_published ?? raw.date_modified,
            },
            base,
          ),
        );
      }
      break;
  }
  return { format: parsed.format, title: plainText(text(feed.title), 200), items };
}

/** What one fetch of a source came to (the admin sees it on the source's row too). */
export interface FetchOutcome {
  source_id: string;
  name: string;
  status: 'ok' | 'not_modified' | 'error';
  new_items: number;
  error: string | null;
}

function failureText(error: unknown): string {
  if (error instanceof OutboundError || error instanceof FeedError) return error.message;
  return 'the feed could not be read';
}

const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';

/** Fetches and parses a feed without saving anything: the admin's "test" and the fetch's first half. */
export async function readFeed(
  deps: NewsDeps,
  feedUrl: string,
  validators: { etag?: string | null; lastModified?: string | null } = {},
): Promise<
  | { notModified: true }
  | { notModified: false; feed: ParsedFeed; etag: string | null; lastModified: string | null }
> {
  const response = await safeGet(feedUrl, {
    ...deps.fetch,
    accept: FEED_ACCEPT,
    etag: validators.etag ?? null,
    lastModified: validators.lastModified ?? null,
    signal: deps.shutdown.signal,
  });
  if (response.notModified) return { notModified: true };
  const feed = parseFeedDocument(response.body, response.url);
  return { notModified: false, feed, etag: response.etag, lastModified: response.lastModified };
}

/** One fetch of one source, recorded on it whatever happens. */
export async function fetchSource(deps: NewsDeps, source: NewsSourceRow): Promise<FetchOutcome> {
  const base = { source_id: source.id, name: source.name };
  try {
    const result = await readFeed(deps, source.feed_url, {
      etag: source.etag,
      lastModified: source.last_modified,
    });
    if (result.notModified) {
      await recordNewsFetch(deps.db, source.id, 'not_modified', null);
      return { ...base, status: 'not_modified', new_items: 0, error: null };
    }
    const added = await ingestNewsItems(
      deps.db,
      source.id,
      result.feed.items,
      result.etag,
      result.lastModified,
    );
    return { ...base, status: 'ok', new_items: added, error: null };
  } catch (error) {
    const message = failureText(error);
    if (!(error instanceof OutboundError || error instanceof FeedError)) {
      deps.log.warn({ err: error, source: source.id }, 'news: fetching a source failed');
    }
    if (!deps.shutdown.signal.aborted) await recordNewsFetch(deps.db, source.id, 'error', message);
    return { ...base, status: 'error', new_items: 0, error: message };
  }
}

/** Fetches sources a few at a time. */
async function fetchAll(deps: NewsDeps, sources: NewsSourceRow[]): Promise<FetchOutcome[]> {
  const outcomes: FetchOutcome[] = [];
  const queue = [...sources];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (deps.shutdown.signal.aborted) return;
      outcomes.push(await fetchSource(deps, next));
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  return outcomes.sort((a, b) => a.name.localeCompare(b.name));
}

/** "Refresh now": one source (enabled or not), or every enabled one. */
export function refreshNow(deps: NewsDeps, sourceId: string | null): Promise<FetchOutcome[] | null> {
  // The server's work, though an operator's request starts it: not bound by that client's share.
  return runAsServer(async () => {
    const sources = await listNewsSources(deps.db, sourceId);
    if (sourceId !== null && sources.length === 0) return null;
    return fetchAll(deps, sourceId === null ? sources.filter((source) => source.enabled) : sources);
  });
}

/**
 * The schedule: the enabled sources not attempted for most of an interval, each claimed in the database
 * before it is fetched, so that several server processes never fetch one source twice.
 */
export async function refreshDue(deps: NewsDeps): Promise<FetchOutcome[]> {
  const sources = await claimDueSources(deps.db, Math.max(1, deps.refreshMinutes) * 60 - 30);
  return fetchAll(deps, sources);
}

/** The admin's "test": the parsed items of one fetch, or why it failed; nothing is saved. */
export async function testFeed(
  deps: NewsDeps,
  feedUrl: string,
): Promise<
  | { ok: true; format: ParsedFeed['format']; title: string | null; item_count: number; items: NewsItem[] }
  | { ok: false; error: string }
> {
  try {
    const result = await readFeed(deps, feedUrl);
    if (result.notModified)
      return { ok: false, error: 'the server answered 304 Not Modified to a plain request' };
    const { feed } = result;
    return {
      ok: true,
      format: feed.format,
      title: feed.title,
      item_count: feed.items.length,
      items: feed.items.slice(0, 20),
    };
  } catch (error) {
    if (!(error instanceof OutboundError || error instanceof FeedError)) {
      deps.log.warn({ err: error }, 'news: testing a feed failed');
    }
    return { ok: false, error: failureText(error) };
  }
}
