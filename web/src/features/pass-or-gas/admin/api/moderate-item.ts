import { loadSupabase } from '#web/lib/supabase.ts';
import type { ModerationItem } from './get-moderation-items.ts';
import { useAdminWrite } from './use-admin-write.ts';

/** An admin's decision on a reported comment (hide, dismiss…) or on held votes (release, reject). Audited. */
export async function moderateItem({
  item,
  action,
}: {
  item: ModerationItem;
  action: string;
}): Promise<void> {
  const supabase = await loadSupabase();
  const fn = item.kind === 'comment_report' ? 'moderate_comment' : 'moderate_held_votes';
  const { error } = await supabase.rpc(fn, { item_id: item.id, action });
  if (error) throw error;
}

export const useModerate = () => useAdminWrite(moderateItem);
