import { loadSupabase } from '../../../lib/supabase.ts';

/** Spec §7 saved_articles: delete by user_id and id. */
export async function removeSavedArticle(userId: string, id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('saved_articles')
    .delete()
    .eq('user_id', userId)
    .eq('id', id)
    .select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('Saved article not found');
}
