import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface AdminArticle {
  id: string;
  title: string;
  url: string;
  source_name: string;
  published_at: string;
  hidden: boolean;
  is_sample: boolean;
}

/**
 * /admin/news: the 30 newest articles, hidden ones included, or those whose title holds the words of
 * `q` (any case, punctuation aside; decision 257).
 */
export async function getAdminArticles(q: string): Promise<AdminArticle[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('admin_find_articles', { q: q.trim() || null, max_rows: 30 });
  if (error) throw error;
  return (data ?? []) as AdminArticle[];
}

export const adminArticlesQueryOptions = (q: string) =>
  queryOptions({ queryKey: ['news', 'admin-articles', { q }], queryFn: () => getAdminArticles(q) });
