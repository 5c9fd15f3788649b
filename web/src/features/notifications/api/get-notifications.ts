import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import {
  type AppNotification,
  applyNotificationsEvent,
  NOTIFICATIONS_LIMIT,
  type NotificationsData,
  parseNotification,
} from '../notifications-state.ts';

/**
 * Product §table-calls notifications: the member's latest 20, and how many of all their notifications are
 * unread (the badge counts beyond the 20 shown, up to 99+). Filtered by user id because admins may read
 * everyone's notifications.
 */
export async function getNotifications(
  userId: string,
): Promise<{ items: AppNotification[]; unread: number; countedUnread: string[] }> {
  const supabase = await loadSupabase();
  const [list, unread] = await Promise.all([
    supabase
      .from('notifications')
      .select('id, title, message, is_read, created_at, link')
      .eq('user_id', userId)
      .order('created_at', { ascending: false })
      .limit(NOTIFICATIONS_LIMIT),
    // The newest unread ids come with the count: a live row this query counted is not counted again.
    supabase
      .from('notifications')
      .select('id', { count: 'exact' })
      .eq('user_id', userId)
      .eq('is_read', false)
      .order('created_at', { ascending: false })
      .limit(NOTIFICATIONS_LIMIT),
  ]);
  if (list.error) throw list.error;
  if (unread.error) throw unread.error;
  const items = (list.data ?? []).map(parseNotification).filter((item) => item !== null);
  const countedUnread = (unread.data ?? []).map((row) => row.id);
  return { items, unread: unread.count ?? items.filter((item) => !item.is_read).length, countedUnread };
}

/**
 * The bell's list. Live rows are written into this query as they arrive (hooks/use-notifications.ts),
 * and a load keeps those it did not see yet, so a row that arrived while the list was loading stays.
 */
export const notificationsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['notifications', 'latest', { userId }],
    queryFn: userId
      ? async ({ client, queryKey }) => {
          const loaded = await getNotifications(userId);
          const current = client.getQueryData<NotificationsData>(queryKey);
          return applyNotificationsEvent(current, { type: 'loaded', ...loaded });
        }
      : skipToken,
  });
