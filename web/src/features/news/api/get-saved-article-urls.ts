import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

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
