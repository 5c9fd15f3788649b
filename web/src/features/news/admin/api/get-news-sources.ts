import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** A source as the admin screen shows it (supabase/migrations/20261124200000_news.sql). */
export interface NewsSource {
  id: string;
  name: string;
  feed_url: string;
  category: string;
  enabled: boolean;
  origin: string | null;
  last_fetched_at: string | null;
  last_status: 'ok' | 'not_modified' | 'error' | null;
  last_error: string | null;
  last_new_count: number;
  item_count: number;
}

/** /admin/news: every source by name, with its last fetch. */
export async function getNewsSources(): Promise<NewsSource[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('news_sources')
    .select(
      'id, name, feed_url, category, enabled, origin, last_fetched_at, last_status, last_error, last_new_count, item_count',
    )
    .order('name');
  if (error) throw error;
  return (data ?? []) as NewsSource[];
}

export const newsSourcesQueryOptions = () =>
  queryOptions({ queryKey: ['news', 'sources', {}], queryFn: getNewsSources });
