/**
 * The head of every page the server answers with (decision 183): `<title>`, meta description,
 * canonical URL, robots, Open Graph and Twitter card tags, feed links and JSON-LD, built on the server
 * so a search engine or a link preview sees the page without running its JavaScript. Pure: what a page
 * is about comes from `pages.ts`; this file only writes it as HTML, escaped.
 */
import type { Thing, WithContext } from 'schema-dts';
import { escapeHtml } from '../http/prerendered.ts';

/** What one page says about itself. */
export interface PageHead {
  /** The page's own title, without the site name ("Acme — Brand Directory"); undefined: the site name. */
  title?: string;
  description: string;
  /** The canonical path (no query string), or null for a page without one (not found, private). */
  canonicalPath: string | null;
  /** Keep the page out of search results (private, not found, sample content, indexing off). */
  noindex: boolean;
  /** The address names nothing (a brand, product, post or member that does not exist): answered 404. */
  missing?: boolean;
  /** Open Graph type. */
  type?: 'website' | 'article' | 'product' | 'profile';
  /** An absolute https:// image or a path of this site. */
  image?: string | null;
  /** ISO date-times of an article. */
  publishedTime?: string;
  modifiedTime?: string;
  /** Structured data, one `<script type="application/ld+json">` each. */
  jsonLd?: WithContext<Thing>[];
  /** Feeds offered on the page (`<link rel="alternate">`). */
  feeds?: { title: string; path: string; type: 'application/atom+xml' | 'application/rss+xml' }[];
}

export interface SiteInfo {
  siteUrl: string;
  siteName: string;
}

/** Where the server puts a page's head in the document (web/index.html's title and description). */
export const HEAD_MARKER = '<!--page-head-->';

/** Descriptions never run on: search engines show ~160 characters. */
export const MAX_DESCRIPTION = 200;

/** "{title} · {site name}", as the web app's documentTitle writes it. */
export function fullTitle(head: Pick<PageHead, 'title'>, site: SiteInfo): string {
  return head.title ? `${head.title} · ${site.siteName}` : site.siteName;
}

/** Text reduced to one line of at most `max` characters, cut at a word with an ellipsis. */
export function summarise(text: string, max = MAX_DESCRIPTION): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** Markdown as plain text for a description: no heading or quote marks, emphasis, code ticks or link targets. */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`+)/g, '');
}

/** JSON that is safe inside `<script type="application/ld+json">`: nothing in it can end the element. */
export function jsonLdForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** An absolute URL on this site for a path, or an absolute URL as it is. */
export function absoluteUrl(site: SiteInfo, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${site.siteUrl}${pathOrUrl}`;
}

/** The head's HTML, every value escaped. */
export function renderHead(head: PageHead, site: SiteInfo): string {
  const e = escapeHtml;
  const title = fullTitle(head, site);
  const description = summarise(head.description);
  const lines = [`<title>${e(title)}</title>`, `<meta name="description" content="${e(description)}" />`];
  if (head.noindex) lines.push('<meta name="robots" content="noindex, nofollow" />');
  if (head.canonicalPath) {
    lines.push(`<link rel="canonical" href="${e(absoluteUrl(site, head.canonicalPath))}" />`);
  }
  const image = head.image ? absoluteUrl(site, head.image) : null;
  const og: [string, string | undefined][] = [
    ['og:site_name', site.siteName],
    ['og:type', head.type === 'product' ? 'product' : (head.type ?? 'website')],
    ['og:title', head.title ?? site.siteName],
    ['og:description', description],
    ['og:url', head.canonicalPath ? absoluteUrl(site, head.canonicalPath) : undefined],
    ['og:image', image ?? undefined],
    ['article:published_time', head.type === 'article' ? head.publishedTime : undefined],
    ['article:modified_time', head.type === 'article' ? head.modifiedTime : undefined],
  ];
  for (const [property, content] of og) {
    if (content) lines.push(`<meta property="${property}" content="${e(content)}" />`);
  }
  lines.push(`<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />`);
  lines.push(`<meta name="twitter:title" content="${e(head.title ?? site.siteName)}" />`);
  lines.push(`<meta name="twitter:description" content="${e(description)}" />`);
  if (image) lines.push(`<meta name="twitter:image" content="${e(image)}" />`);
  for (const feed of head.feeds ?? []) {
    lines.push(
      `<link rel="alternate" type="${feed.type}" title="${e(feed.title)}" href="${e(absoluteUrl(site, feed.path))}" />`,
    );
  }
  for (const data of head.jsonLd ?? []) {
    lines.push(`<script type="application/ld+json">${jsonLdForHtml(data)}</script>`);
  }
  return lines.join('\n    ');
}

const TITLE = /<title>([\s\S]*?)<\/title>\s*/;
const DESCRIPTION = /<meta name="description" content="[^"]*"\s*\/?>\s*/;

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * A document's head made ready for a page head: its `<title>` and description taken out and the
 * marker put where the title was. Also answers the title it held (text, unescaped), which is the
 * prerendered page's own.
 */
export function prepareHead(html: string): { html: string; title: string | null } {
  const match = TITLE.exec(html);
  if (!match) throw new Error('the page template has no <title>');
  const title = unescapeHtml(match[1] ?? '');
  return {
    html: html.replace(DESCRIPTION, '').replace(TITLE, `${HEAD_MARKER}\n    `),
    title,
  };
}
