import { loadSupabase } from '#web/lib/supabase.ts';
import { useNewsWrite } from './use-news-write.ts';

/** Hides an article from the feed, or shows it again. */
export async function setArticleHidden({ id, hidden }: { id: string; hidden: boolean }): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('news_articles').update({ hidden }).eq('id', id).select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('The article could not be changed');
}

export const useSetArticleHidden = () => useNewsWrite(setArticleHidden, 'settled');
