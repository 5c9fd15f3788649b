/**
 * Feeds out (decision 187): Atom for the team's posts (`/feeds/posts.xml`) and for the news feed, all
 * of it or one category (`/feeds/news.xml?category=Business`). News items link to their own source and
 * keep its date; the team's posts link to their page here. Read as `anon` through the same table and
 * RPC the news page reads.
 */
import type { Database, Queryable } from '../db/driver.ts';
import * as sql from './db.ts';
import { markdownText, type SiteInfo, summarise } from './head.ts';
import { escapeXml } from './xml.ts';

/** Entries per feed (news_feed answers at most 50). */
export const FEED_ENTRIES = 50;

interface Entry {
  id: string;
  title: string;
  link: string;
  published: string;
  updated: string;
  summary: string | null;
  author: string;
  category: string | null;
  /** Sanitised HTML of a team post (decision 103). */
  html?: string | null;
}

function atom(
  feed: { id: string; title: string; self: string; alternate: string; updated: string },
  entries: Entry[],
) {
  const e = escapeXml;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${e(feed.id)}</id>`,
    `<title>${e(feed.title)}</title>`,
    `<link rel="self" type="application/atom+xml" href="${e(feed.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${e(feed.alternate)}"/>`,
    `<updated>${feed.updated}</updated>`,
  ];
  for (const entry of entries) {
    lines.push(
      '<entry>',
      `<id>${e(entry.id)}</id>`,
      `<title>${e(entry.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${e(entry.link)}"/>`,
      `<published>${entry.published}</published>`,
      `<updated>${entry.updated}</updated>`,
      `<author><name>${e(entry.author)}</name></author>`,
      ...(entry.category ? [`<category term="${e(entry.category)}"/>`] : []),
      ...(entry.summary ? [`<summary type="text">${e(entry.summary)}</summary>`] : []),
      ...(entry.html ? [`<content type="html">${e(entry.html)}</content>`] : []),
      '</entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

export function createFeeds(deps: { db: Database; site: SiteInfo }) {
  const anon = <T>(fn: (tx: Queryable) => Promise<T>) =>
    deps.db.withScope({ role: 'anon', claims: { role: 'anon' }, readOnly: true }, fn);
  const url = (path: string) => `${deps.site.siteUrl}${path}`;
  // ISO 8601 UTC times in one format compare as text.
  const latest = (...times: string[]) => times.sort().at(-1) ?? '1970-01-01T00:00:00Z';
  const newest = (entries: Entry[]) =>
    latest('1970-01-01T00:00:00Z', ...entries.map((entry) => entry.updated));

  async function posts(): Promise<string> {
    const rows = await anon((tx) => sql.feedPosts(tx, FEED_ENTRIES));
    const entries: Entry[] = rows.map((row) => ({
      id: url(`/news/posts/${row.id}`),
      title: row.title,
      link: url(`/news/posts/${row.id}`),
      published: row.published_at,
      updated: latest(row.updated_at, row.published_at),
      summary: summarise(markdownText(row.content), 400),
      author: deps.site.siteName,
      category: 'Team',
      html: row.body_html,
    }));
    return atom(
      {
        id: url('/feeds/posts.xml'),
        title: `${deps.site.siteName}: team posts`,
        self: url('/feeds/posts.xml'),
        alternate: url('/news?category=Team'),
        updated: newest(entries),
      },
      entries,
    );
  }

  /** The news feed, or one category's (at most 40 characters, as the news page allows). */
  async function news(category: string | null): Promise<string> {
    const rows = await anon((tx) => sql.feedItems(tx, category, FEED_ENTRIES));
    const entries: Entry[] = rows.map((row) => {
      const own = url(`/news/posts/${row.id}`);
      return {
        // An article is its source's: its own link and date; a team post is ours.
        id: row.kind === 'article' && row.url ? row.url : own,
        title: row.title,
        link: row.kind === 'article' && row.url ? row.url : own,
        published: row.published_at,
        updated: row.published_at,
        summary: row.summary ? summarise(row.summary, 400) : null,
        author: row.kind === 'article' ? (row.source_name ?? 'Unknown source') : deps.site.siteName,
        category: row.category,
      };
    });
    const query = category ? `?category=${encodeURIComponent(category)}` : '';
    return atom(
      {
        id: url(`/feeds/news.xml${query}`),
        title: `${deps.site.siteName}: news${category ? ` — ${category}` : ''}`,
        self: url(`/feeds/news.xml${query}`),
        alternate: url(`/news${query}`),
        updated: newest(entries),
      },
      entries,
    );
  }

  return { posts, news };
}
