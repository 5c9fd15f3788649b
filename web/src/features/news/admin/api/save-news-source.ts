import { loadSupabase } from '#web/lib/supabase.ts';
import type { NewsSourceInput } from '../source-form.ts';
import { useNewsWrite } from './use-news-write.ts';

/** A source's changes (`id`), or a new source (null) marked as added by an admin. */
export async function saveNewsSource({
  id,
  input,
}: {
  id: string | null;
  input: NewsSourceInput;
}): Promise<void> {
  const supabase = await loadSupabase();
  const row = { name: input.name, feed_url: input.feedUrl, category: input.category };
  const { error } = id
    ? await supabase.from('news_sources').update(row).eq('id', id)
    : await supabase.from('news_sources').insert({ ...row, origin: 'added by an admin' });
  if (error) throw error;
}

export const useSaveNewsSource = () => useNewsWrite(saveNewsSource);
