import { invokeFunction } from '#web/lib/invoke-function.ts';

export type FeedTestResult =
  | {
      ok: true;
      format: 'rss' | 'atom' | 'rdf' | 'json';
      title: string | null;
      item_count: number;
      items: { title: string; url: string; published_at: string | null; summary: string | null }[];
    }
  | { ok: false; error: string };

/** Reads a feed without saving anything (functions/v1/news-feed-test): what it would bring. */
export const testNewsFeed = (feedUrl: string) =>
  invokeFunction<FeedTestResult>('news-feed-test', { feed_url: feedUrl });
