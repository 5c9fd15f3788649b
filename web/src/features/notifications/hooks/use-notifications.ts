import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { toast } from '../../../components/ui/use-toast.ts';
import { errorText } from '../../../lib/error-text.ts';
import { getNotifications } from '../api/get-notifications.ts';
import { markAllNotificationsRead } from '../api/mark-all-notifications-read.ts';
import { markNotificationRead } from '../api/mark-notification-read.ts';
import { subscribeToNotifications } from '../api/subscribe-to-notifications.ts';
import {
  type AppNotification,
  initialNotificationsState,
  type NotificationsState,
  notificationsReducer,
} from '../notifications-state.ts';

export interface NotificationsController extends NotificationsState {
  /** What the bell's live region says about the latest arrival. */
  announcement: string;
  reload: () => void;
  markRead: (notification: AppNotification) => void;
  markAllRead: () => void;
}

/**
 * The member's notifications (spec §2, §4): the latest 20 and the unread count, new rows live with a
 * toast of their title and message, read marks saved at once (and undone by a reload if saving
 * failed). Nothing for a visitor.
 */
export function useNotifications(userId: string | null): NotificationsController {
  const [state, dispatch] = useReducer(notificationsReducer, initialNotificationsState);
  const [announcement, setAnnouncement] = useState('');
  const unread = useRef(0);
  unread.current = state.unread;
  const generation = useRef(0);

  const load = useCallback(async (id: string) => {
    const current = generation.current;
    dispatch({ type: 'loading' });
    try {
      const result = await getNotifications(id);
      if (generation.current === current) dispatch({ type: 'loaded', ...result });
    } catch {
      if (generation.current === current) dispatch({ type: 'failed' });
    }
  }, []);

  useEffect(() => {
    generation.current += 1;
    dispatch({ type: 'reset' });
    setAnnouncement('');
    if (!userId) return;
    let live = true;
    let leave: (() => void) | null = null;
    void load(userId);
    subscribeToNotifications(userId, {
      onInsert: (notification) => {
        if (!live) return;
        dispatch({ type: 'received', item: notification });
        toast({ title: notification.title, description: notification.message });
        const count = unread.current + (notification.is_read ? 0 : 1);
        setAnnouncement(`New notification. ${count} unread.`);
      },
      // Rows inserted before the channel was (re)joined did not arrive live: fetch them.
      onSubscribed: () => {
        if (live) void load(userId);
      },
    })
      .then((unsubscribe) => {
        if (live) leave = unsubscribe;
        else unsubscribe();
      })
      .catch(() => {
        // No live updates; the list still loads and refreshes when the bell is opened.
      });
    return () => {
      live = false;
      leave?.();
    };
  }, [userId, load]);

  const fail = useCallback(
    (error: unknown) => {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
      if (userId) void load(userId);
    },
    [userId, load],
  );

  return {
    ...state,
    announcement,
    reload: useCallback(() => {
      if (userId) void load(userId);
    }, [userId, load]),
    markRead: useCallback(
      (notification: AppNotification) => {
        if (notification.is_read) return;
        dispatch({ type: 'marked-read', id: notification.id });
        markNotificationRead(notification.id).catch(fail);
      },
      [fail],
    ),
    markAllRead: useCallback(() => {
      if (!userId || unread.current === 0) return;
      dispatch({ type: 'all-marked-read' });
      markAllNotificationsRead(userId).catch(fail);
    }, [userId, fail]),
  };
}
