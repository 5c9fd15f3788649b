import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { invokeFunction } from '#web/lib/invoke-function.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { NewsSourceInput } from '../admin/source-form.ts';

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

export interface AdminArticle {
  id: string;
  title: string;
  url: string;
  source_name: string;
  published_at: string;
  hidden: boolean;
  is_sample: boolean;
}

export interface FetchOutcome {
  source_id: string;
  name: string;
  status: 'ok' | 'not_modified' | 'error';
  new_items: number;
  error: string | null;
}

export type FeedTestResult =
  | {
      ok: true;
      format: 'rss' | 'atom' | 'rdf' | 'json';
      title: string | null;
      item_count: number;
      items: { title: string; url: string; published_at: string | null; summary: string | null }[];
    }
  | { ok: false; error: string };

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

const invoke = invokeFunction;

export const testNewsFeed = (feedUrl: string) =>
  invoke<FeedTestResult>('news-feed-test', { feed_url: feedUrl });

/** Everything a change to sources or articles may have moved: the admin lists and the public feed. */
function useInvalidateNews() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['news'] });
}

export function useRefreshNews() {
  const invalidate = useInvalidateNews();
  return useMutation({
    mutationFn: (sourceId: string | null) =>
      invoke<{ sources: FetchOutcome[] }>('news-refresh', sourceId ? { source_id: sourceId } : {}),
    onSettled: invalidate,
  });
}

export function useSaveNewsSource() {
  const invalidate = useInvalidateNews();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string | null; input: NewsSourceInput }) => {
      const supabase = await loadSupabase();
      const row = { name: input.name, feed_url: input.feedUrl, category: input.category };
      const { error } = id
        ? await supabase.from('news_sources').update(row).eq('id', id)
        : await supabase.from('news_sources').insert({ ...row, origin: 'added by an admin' });
      if (error) throw error;
    },
    onSuccess: invalidate,
  });
}

export function useSetNewsSourceEnabled() {
  const invalidate = useInvalidateNews();
  return useMutation({
    mutationFn: async ({ id, enabled }: { id: string; enabled: boolean }) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('news_sources').update({ enabled }).eq('id', id);
      if (error) throw error;
    },
    onSettled: invalidate,
  });
}

export function useDeleteNewsSource() {
  const invalidate = useInvalidateNews();
  return useMutation({
    mutationFn: async (id: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('news_sources').delete().eq('id', id);
      if (error) throw error;
    },
    onSuccess: invalidate,
  });
}

export function useSetArticleHidden() {
  const invalidate = useInvalidateNews();
  return useMutation({
    mutationFn: async ({ id, hidden }: { id: string; hidden: boolean }) => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('news_articles')
        .update({ hidden })
        .eq('id', id)
        .select('id');
      if (error) throw error;
      if (!data?.length) throw new Error('The article could not be changed');
    },
    onSettled: invalidate,
  });
}
