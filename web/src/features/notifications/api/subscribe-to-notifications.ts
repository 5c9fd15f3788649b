import { loadSupabase } from '#web/lib/supabase.ts';
import { type AppNotification, parseNotification } from '../notifications-state.ts';

interface Handlers {
  onInsert: (notification: AppNotification) => void;
  /** The channel is (again) subscribed; after a reconnect, rows may have been missed. */
  onSubscribed: (first: boolean) => void;
}

/**
 * Product §notifications, §table-calls: new notifications of the member arrive live — realtime
 * postgres_changes, INSERT on public.notifications filtered by user_id. Until `signal` aborts: then the
 * channel is left (or never joined, if the client was still loading) and the handlers hear nothing more.
 */
export async function subscribeToNotifications(
  userId: string,
  handlers: Handlers,
  signal: AbortSignal,
): Promise<void> {
  const supabase = await loadSupabase();
  if (signal.aborted) return;
  let subscribedOnce = false;
  const channel = supabase
    .channel(`notifications:${userId}`)
    .on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'notifications', filter: `user_id=eq.${userId}` },
      (payload) => {
        const notification = parseNotification(payload.new);
        if (notification && !signal.aborted) handlers.onInsert(notification);
      },
    )
    .subscribe((status) => {
      if (status !== 'SUBSCRIBED' || signal.aborted) return;
      handlers.onSubscribed(!subscribedOnce);
      subscribedOnce = true;
    });
  signal.addEventListener('abort', () => void supabase.removeChannel(channel), { once: true });
}
