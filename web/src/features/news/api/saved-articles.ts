import { queryOptions, skipToken, useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { NewsEntry } from '../news-feed.ts';

/** The member's saved article URLs → saved row id: which hearts are filled. */
export async function getSavedArticleUrls(userId: string): Promise<Map<string, string>> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('saved_articles')
    .select('id, article_url')
    .eq('user_id', userId);
  if (error) throw error;
  return new Map((data ?? []).map((row) => [row.article_url as string, row.id as string]));
}

export const savedArticleUrlsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['news', 'saved-urls', { userId }],
    queryFn: userId ? () => getSavedArticleUrls(userId) : skipToken,
  });

/**
 * Saves an article as the profile's Saved tab reads it (product §data saved_articles: title, summary, image,
 * source, category, url).
 */
export async function saveArticle(userId: string, entry: NewsEntry): Promise<string> {
  if (!entry.url) throw new Error('Only articles can be saved');
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('saved_articles')
    .insert({
      user_id: userId,
      article_title: entry.title,
      article_summary: entry.summary,
      article_image: entry.image_url,
      article_source: entry.source_name,
      article_category: entry.category,
      article_url: entry.url,
    })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

export async function unsaveArticle(userId: string, url: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase
    .from('saved_articles')
    .delete()
    .eq('user_id', userId)
    .eq('article_url', url);
  if (error) throw error;
}

/** Saves or removes; the hearts' cache is updated from the answer. */
export function useToggleSavedArticle(userId: string | null) {
  const queryClient = useQueryClient();
  const key = savedArticleUrlsQueryOptions(userId).queryKey;
  return useMutation({
    mutationFn: async ({ entry, saved }: { entry: NewsEntry; saved: boolean }) => {
      if (!userId || !entry.url) throw new Error('Sign in to save articles');
      if (saved) {
        await unsaveArticle(userId, entry.url);
        return { url: entry.url, id: null };
      }
      return { url: entry.url, id: await saveArticle(userId, entry) };
    },
    onSuccess: ({ url, id }) =>
      queryClient.setQueryData(key, (current) => {
        const next = new Map(current ?? []);
        if (id) next.set(url, id);
        else next.delete(url);
        return next;
      }),
  });
}
