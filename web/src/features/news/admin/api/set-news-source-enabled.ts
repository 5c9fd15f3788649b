import { loadSupabase } from '#web/lib/supabase.ts';
import { useNewsWrite } from './use-news-write.ts';

/** Switches a source on or off: a disabled one is no longer fetched, nor shown as a category. */
export async function setNewsSourceEnabled({ id, enabled }: { id: string; enabled: boolean }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('news_sources').update({ enabled }).eq('id', id);
  if (error) throw error;
}

export const useSetNewsSourceEnabled = () => useNewsWrite(setNewsSourceEnabled, 'settled');
