import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { notificationsQueryOptions } from '../api/get-notifications.ts';
import { markAllNotificationsRead } from '../api/mark-all-notifications-read.ts';
import { markNotificationRead } from '../api/mark-notification-read.ts';
import { subscribeToNotifications } from '../api/subscribe-to-notifications.ts';
import {
  type AppNotification,
  applyNotificationsEvent,
  type NotificationsEvent,
  type NotificationsState,
} from '../notifications-state.ts';

export interface NotificationsController extends NotificationsState {
  /** What the bell's live region says about the latest arrival. */
  announcement: string;
  reload: () => void;
  markRead: (notification: AppNotification) => void;
  markAllRead: () => void;
}

/**
 * The member's notifications (product §notifications): the latest 20 and the unread count, new rows live with
 * a toast of their title and message, read marks saved at once (and undone by a reload if saving
 * failed). Nothing for a visitor. The list is one cached query; live rows and read marks are written
 * into it, so it never disagrees with itself.
 */
export function useNotifications(userId: string | null): NotificationsController {
  const queryClient = useQueryClient();
  const query = useQuery(notificationsQueryOptions(userId));
  const [announcement, setAnnouncement] = useState('');

  const apply = useCallback(
    (event: NotificationsEvent) =>
      queryClient.setQueryData(notificationsQueryOptions(userId).queryKey, (current) =>
        applyNotificationsEvent(current, event),
      ),
    [queryClient, userId],
  );
  const reload = useCallback(() => {
    if (userId) void queryClient.refetchQueries({ queryKey: notificationsQueryOptions(userId).queryKey });
  }, [queryClient, userId]);

  useEffect(() => {
    setAnnouncement('');
    if (!userId) return;
    const following = new AbortController();
    subscribeToNotifications(
      userId,
      {
        onInsert: (notification) => {
          const key = notificationsQueryOptions(userId).queryKey;
          const before = queryClient.getQueryData(key)?.unread ?? 0;
          apply({ type: 'received', item: notification });
          toast({ title: notification.title, description: notification.message });
          setAnnouncement(`New notification. ${before + (notification.is_read ? 0 : 1)} unread.`);
        },
        // Rows inserted before the channel was (re)joined did not arrive live: fetch them.
        onSubscribed: reload,
      },
      following.signal,
    ).catch(() => {
      // No live updates; the list still loads and refreshes when the bell is opened.
    });
    return () => following.abort();
  }, [userId, queryClient, apply, reload]);

  const fail = (error: unknown) => {
    toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
    reload();
  };
  const markOne = useMutation({ mutationFn: markNotificationRead, onError: fail });
  const markAll = useMutation({ mutationFn: markAllNotificationsRead, onError: fail });

  const data = userId ? query.data : undefined;
  const status: NotificationsState['status'] = !userId
    ? 'idle'
    : data
      ? 'ready'
      : query.isError
        ? 'error'
        : 'loading';
  const unread = data?.unread ?? 0;

  return {
    status,
    items: data?.items ?? [],
    unread,
    announcement,
    reload,
    markRead: (notification) => {
      if (notification.is_read) return;
      apply({ type: 'marked-read', id: notification.id });
      markOne.mutate(notification.id);
    },
    markAllRead: () => {
      if (!userId || unread === 0) return;
      apply({ type: 'all-marked-read' });
      markAll.mutate(userId);
    },
  };
}
