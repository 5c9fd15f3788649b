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

/** /admin/news: the 30 newest articles, hidden ones included, whose title holds `q`. */
export async function getAdminArticles(q: string): Promise<AdminArticle[]> {
  const supabase = await loadSupabase();
  let query = supabase
    .from('news_articles')
    .select('id, title, url, source_name, published_at, hidden, is_sample')
    .order('published_at', { ascending: false })
    .limit(30);
  if (q.trim()) query = query.ilike('title', `%${q.trim().replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  const { data, error } = await query;
  if (error) throw error;
  return (data ?? []) as AdminArticle[];
}

export const adminArticlesQueryOptions = (q: string) =>
  queryOptions({ queryKey: ['news', 'admin-articles', { q }], queryFn: () => getAdminArticles(q) });
