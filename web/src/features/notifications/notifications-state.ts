import { formatShortDate } from '#web/lib/format.ts';
/** The bell's state (product §notifications): the latest 20, an unread count, read marks. */
export const NOTIFICATIONS_LIMIT = 20;

export interface AppNotification {
  id: string;
  title: string;
  message: string;
  is_read: boolean;
  created_at: string;
  /** A path on this site the notification is about (the bell opens it), or null. */
  link: string | null;
}

/** Only paths on this site are followed ("/booking#my-bookings"), never another origin. */
export function safeNotificationLink(value: unknown): string | null {
  return typeof value === 'string' && /^\/(?![/\\])\S*$/.test(value) && value.length <= 500 ? value : null;
}

export interface NotificationsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Newest first, at most NOTIFICATIONS_LIMIT. */
  items: AppNotification[];
  /** All unread notifications of the member, not only those in `items`. */
  unread: number;
}

export type NotificationsEvent =
  | { type: 'reset' }
  | { type: 'loading' }
  | { type: 'failed' }
  | {
      type: 'loaded';
      items: AppNotification[];
      unread: number;
      /** Ids of the newest unread rows the count saw (its query runs beside the list's). */
      countedUnread?: string[];
    }
  | { type: 'received'; item: AppNotification }
  | { type: 'marked-read'; id: string }
  | { type: 'all-marked-read' };

export const initialNotificationsState: NotificationsState = { status: 'idle', items: [], unread: 0 };

function newestFirst(items: AppNotification[]): AppNotification[] {
  return [...items].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

export function notificationsReducer(
  state: NotificationsState,
  event: NotificationsEvent,
): NotificationsState {
  switch (event.type) {
    case 'reset':
      return initialNotificationsState;
    case 'loading':
      return { ...state, status: state.status === 'ready' ? 'ready' : 'loading' };
    case 'failed':
      return { ...state, status: state.status === 'ready' ? 'ready' : 'error' };
    case 'loaded': {
      // Rows that arrived live while the list was loading may be newer than what the load saw. The
      // count runs beside the list, so it may have seen a row the list missed: that one is counted once.
      const loadedIds = new Set(event.items.map((item) => item.id));
      const counted = new Set(event.countedUnread ?? []);
      const extra = state.items.filter((item) => !loadedIds.has(item.id));
      return {
        status: 'ready',
        items: newestFirst([...event.items, ...extra]).slice(0, NOTIFICATIONS_LIMIT),
        unread: event.unread + extra.filter((item) => !item.is_read && !counted.has(item.id)).length,
      };
    }
    case 'received': {
      if (state.items.some((item) => item.id === event.item.id)) return state;
      return {
        ...state,
        items: newestFirst([event.item, ...state.items]).slice(0, NOTIFICATIONS_LIMIT),
        unread: state.unread + (event.item.is_read ? 0 : 1),
      };
    }
    case 'marked-read': {
      const target = state.items.find((item) => item.id === event.id);
      if (!target || target.is_read) return state;
      return {
        ...state,
        items: state.items.map((item) => (item.id === event.id ? { ...item, is_read: true } : item)),
        unread: Math.max(0, state.unread - 1),
      };
    }
    case 'all-marked-read':
      return { ...state, items: state.items.map((item) => ({ ...item, is_read: true })), unread: 0 };
  }
}

/** What the page caches of the member's notifications (the query's data). */
export type NotificationsData = Pick<NotificationsState, 'items' | 'unread'>;

/** The cached notifications after an event; nothing cached yet reads as an empty list. */
export function applyNotificationsEvent(
  data: NotificationsData | undefined,
  event: NotificationsEvent,
): NotificationsData {
  const state: NotificationsState = { status: 'ready', items: data?.items ?? [], unread: data?.unread ?? 0 };
  const { items, unread } = notificationsReducer(state, event);
  return { items, unread };
}

/** The unread count as the badge shows it: capped at 99+. */
export function formatUnreadCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** A notification row from the API or a realtime payload, or null when it is not one. */
export function parseNotification(value: unknown): AppNotification | null {
  if (!value || typeof value !== 'object') return null;
  const row = value as Record<string, unknown>;
  if (
    typeof row.id !== 'string' ||
    typeof row.title !== 'string' ||
    typeof row.message !== 'string' ||
    typeof row.created_at !== 'string'
  ) {
    return null;
  }
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    is_read: row.is_read === true,
    created_at: row.created_at,
    link: safeNotificationLink(row.link),
  };
}

// Made on first use, not when the module loads: every page loads this module, and a page's first use of
// Intl sets up ICU, a long task (lib/format.ts). Only a member's open notifications need it.
let relative: Intl.RelativeTimeFormat | undefined;

/** "just now", "5 minutes ago", "yesterday", then the date. */
export function formatNotificationTime(iso: string, now: Date = new Date()): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const seconds = Math.round((time.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  relative ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return formatShortDate(time);
}
