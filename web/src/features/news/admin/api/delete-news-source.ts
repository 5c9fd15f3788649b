import { loadSupabase } from '#web/lib/supabase.ts';
import { useNewsWrite } from './use-news-write.ts';

/** A source and its articles, removed (members keep what they saved). */
export async function deleteNewsSource(id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('news_sources').delete().eq('id', id);
  if (error) throw error;
}

export const useDeleteNewsSource = () => useNewsWrite(deleteNewsSource);
