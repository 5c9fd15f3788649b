import { infiniteQueryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import { type NewsCursor, type NewsEntry, type NewsFilters, nextCursor, PAGE_SIZE } from '../news-feed.ts';

/** One page of the feed: rpc news_feed (supabase/definitions/news_feed.sql). */
export async function getNewsPage(filters: NewsFilters, cursor: NewsCursor | null): Promise<NewsEntry[]> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('news_feed', {
    p_query: filters.q.trim() || null,
    p_category: filters.category,
    p_sort: filters.sort,
    p_limit: PAGE_SIZE,
    ...(cursor ?? {}),
  });
  if (error) throw error;
  return (data ?? []) as NewsEntry[];
}

export const newsFeedQueryOptions = (filters: NewsFilters) =>
  infiniteQueryOptions({
    queryKey: ['news', 'feed', filters],
    queryFn: ({ pageParam }) => getNewsPage(filters, pageParam),
    initialPageParam: null as NewsCursor | null,
    getNextPageParam: (lastPage) => nextCursor(lastPage, filters.sort),
  });
