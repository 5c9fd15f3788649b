import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §table-calls: update is_read by id (the owner may change nothing else, decision 030's guard). */
export async function markNotificationRead(id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('notifications').update({ is_read: true }).eq('id', id);
  if (error) throw error;
}
