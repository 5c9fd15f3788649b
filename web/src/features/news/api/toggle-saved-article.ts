import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { NewsEntry } from '../news-feed.ts';
import { savedArticleUrlsQueryOptions } from './get-saved-article-urls.ts';

/**
 * Saves an article as the profile's Saved tab reads it (product §data saved_articles: title, summary, image,
 * source, category, url).
 */
async function saveArticle(userId: string, entry: NewsEntry & { url: string }): Promise<string> {
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

async function unsaveArticle(userId: string, url: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase
    .from('saved_articles')
    .delete()
    .eq('user_id', userId)
    .eq('article_url', url);
  if (error) throw error;
}

/**
 * Saves an article, or removes it when `saved`; resolves to its URL and saved row id (null: removed).
 */
export async function toggleSavedArticle(
  userId: string | null,
  { entry, saved }: { entry: NewsEntry; saved: boolean },
): Promise<{ url: string; id: string | null }> {
  const { url } = entry;
  if (!userId || !url) throw new Error('Sign in to save articles');
  if (saved) {
    await unsaveArticle(userId, url);
    return { url, id: null };
  }
  return { url, id: await saveArticle(userId, { ...entry, url }) };
}

/** Saves or removes; the hearts' cache is updated from the answer. */
export function useToggleSavedArticle(userId: string | null) {
  const queryClient = useQueryClient();
  const key = savedArticleUrlsQueryOptions(userId).queryKey;
  return useMutation({
    mutationFn: (input: { entry: NewsEntry; saved: boolean }) => toggleSavedArticle(userId, input),
    onSuccess: ({ url, id }) =>
      queryClient.setQueryData(key, (current) => {
        const next = new Map(current ?? []);
        if (id) next.set(url, id);
        else next.delete(url);
        return next;
      }),
  });
}
