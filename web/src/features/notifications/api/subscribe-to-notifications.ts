import { loadSupabase } from '../../../lib/supabase.ts';
import { type AppNotification, parseNotification } from '../notifications-state.ts';

interface Handlers {
  onInsert: (notification: AppNotification) => void;
  /** The channel is (again) subscribed; after a reconnect, rows may have been missed. */
  onSubscribed: (first: boolean) => void;
}

/**
 * Spec §4/§7: new notifications of the member arrive live — realtime postgres_changes, INSERT on
 * public.notifications filtered by user_id. Resolves with a function that leaves the channel.
 */
export async function subscribeToNotifications(userId: string, handlers: Handlers): Promise<() => void> {
  const supabase = await loadSupabase();
  let subscribedOnce = false;
  const channel = supabase
    .channel(`notifications:${userId}`)
    .on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'notifications', filter: `user_id=eq.${userId}` },
      (payload) => {
        const notification = parseNotification(payload.new);
        if (notification) handlers.onInsert(notification);
      },
    )
    .subscribe((status) => {
      if (status !== 'SUBSCRIBED') return;
      handlers.onSubscribed(!subscribedOnce);
      subscribedOnce = true;
    });
  return () => {
    void supabase.removeChannel(channel);
  };
}
