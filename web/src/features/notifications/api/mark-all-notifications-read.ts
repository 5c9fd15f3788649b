import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §table-calls: update is_read for all of the member's unread notifications. */
export async function markAllNotificationsRead(userId: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase
    .from('notifications')
    .update({ is_read: true })
    .eq('user_id', userId)
    .eq('is_read', false);
  if (error) throw error;
}
