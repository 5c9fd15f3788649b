import { describe, expect, it } from 'vitest';
import {
  type AppNotification,
  applyNotificationsEvent,
  formatNotificationTime,
  formatUnreadCount,
  initialNotificationsState,
  NOTIFICATIONS_LIMIT,
  notificationsReducer,
  parseNotification,
} from './notifications-state.ts';

function note(n: number, read = false): AppNotification {
  return {
    id: `n-${n}`,
    title: `Title ${n}`,
    message: `Message ${n}`,
    is_read: read,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    link: null,
  };
}

const loaded = (items: AppNotification[], unread: number) =>
  notificationsReducer(initialNotificationsState, { type: 'loaded', items, unread });

describe('notificationsReducer', () => {
  it('holds the latest 20, newest first, and the total unread count', () => {
    const state = loaded([note(2), note(1, true)], 37);
    expect(state.status).toBe('ready');
    expect(state.items.map((item) => item.id)).toEqual(['n-2', 'n-1']);
    expect(state.unread).toBe(37);
  });

  it('adds a live notification on top, counts it, and keeps at most 20', () => {
    let state = loaded(
      Array.from({ length: NOTIFICATIONS_LIMIT }, (_, i) => note(i + 1)),
      NOTIFICATIONS_LIMIT,
    );
    state = notificationsReducer(state, { type: 'received', item: note(100) });
    expect(state.items).toHaveLength(NOTIFICATIONS_LIMIT);
    expect(state.items[0]?.id).toBe('n-100');
    expect(state.items.some((item) => item.id === 'n-1')).toBe(false);
    expect(state.unread).toBe(NOTIFICATIONS_LIMIT + 1);
  });

  it('ignores a notification it already has (a reconnect replays it)', () => {
    const state = loaded([note(1)], 1);
    expect(notificationsReducer(state, { type: 'received', item: note(1) })).toBe(state);
  });

  it('does not count a live notification that arrives already read', () => {
    const state = notificationsReducer(loaded([], 0), { type: 'received', item: note(1, true) });
    expect(state.unread).toBe(0);
  });

  it('keeps what arrived live while the list was loading, without counting it twice', () => {
    let state = notificationsReducer(initialNotificationsState, { type: 'loading' });
    state = notificationsReducer(state, { type: 'received', item: note(5) });
    state = notificationsReducer(state, { type: 'received', item: note(6) });
    // The load saw n-5 (already counted in its unread) but not n-6.
    state = notificationsReducer(state, { type: 'loaded', items: [note(5), note(4)], unread: 2 });
    expect(state.items.map((item) => item.id)).toEqual(['n-6', 'n-5', 'n-4']);
    expect(state.unread).toBe(3);
  });

  it('counts a live row once when the count saw it but the list did not (the two queries run side by side)', () => {
    let state = notificationsReducer(initialNotificationsState, { type: 'loading' });
    state = notificationsReducer(state, { type: 'received', item: note(6) });
    // The list ran before n-6 was written, the count after: its 2 include n-6.
    state = notificationsReducer(state, {
      type: 'loaded',
      items: [note(5)],
      unread: 2,
      countedUnread: ['n-6', 'n-5'],
    });
    expect(state.items.map((item) => item.id)).toEqual(['n-6', 'n-5']);
    expect(state.unread).toBe(2);
  });

  it('marks one read and lowers the count once', () => {
    let state = loaded([note(2), note(1)], 5);
    state = notificationsReducer(state, { type: 'marked-read', id: 'n-1' });
    expect(state.items.find((item) => item.id === 'n-1')?.is_read).toBe(true);
    expect(state.unread).toBe(4);
    expect(notificationsReducer(state, { type: 'marked-read', id: 'n-1' })).toBe(state);
    expect(notificationsReducer(state, { type: 'marked-read', id: 'nope' })).toBe(state);
  });

  it('never counts below zero', () => {
    const state = notificationsReducer(loaded([note(1)], 0), { type: 'marked-read', id: 'n-1' });
    expect(state.unread).toBe(0);
  });

  it('marks all read', () => {
    const state = notificationsReducer(loaded([note(2), note(1)], 120), { type: 'all-marked-read' });
    expect(state.unread).toBe(0);
    expect(state.items.every((item) => item.is_read)).toBe(true);
  });

  it('reports a failed load, but keeps a list it already has', () => {
    expect(notificationsReducer(initialNotificationsState, { type: 'failed' }).status).toBe('error');
    const ready = loaded([note(1)], 1);
    expect(notificationsReducer(ready, { type: 'failed' })).toEqual(ready);
    expect(notificationsReducer(ready, { type: 'loading' }).status).toBe('ready');
  });

  it('forgets everything on reset (sign-out)', () => {
    expect(notificationsReducer(loaded([note(1)], 1), { type: 'reset' })).toEqual(initialNotificationsState);
  });
});

describe('formatUnreadCount', () => {
  it('caps the badge at 99+', () => {
    expect(formatUnreadCount(1)).toBe('1');
    expect(formatUnreadCount(99)).toBe('99');
    expect(formatUnreadCount(100)).toBe('99+');
    expect(formatUnreadCount(12_345)).toBe('99+');
  });
});

describe('parseNotification', () => {
  it('reads a row', () => {
    expect(parseNotification({ ...note(1), user_id: 'u', extra: 1 })).toEqual(note(1));
  });

  it('keeps a link only when it is a path on this site', () => {
    expect(parseNotification({ ...note(1), link: '/booking#my-bookings' })?.link).toBe(
      '/booking#my-bookings',
    );
    for (const link of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      5,
    ]) {
      expect(parseNotification({ ...note(1), link })?.link).toBeNull();
    }
  });

  it('refuses anything else', () => {
    expect(parseNotification(null)).toBeNull();
    expect(parseNotification({ id: 1 })).toBeNull();
    expect(parseNotification({ ...note(1), title: null })).toBeNull();
  });
});

describe('formatNotificationTime', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  it.each([
    ['2026-01-10T11:59:30Z', 'just now'],
    ['2026-01-10T11:55:00Z', '5 minutes ago'],
    ['2026-01-10T09:00:00Z', '3 hours ago'],
    ['2026-01-09T12:00:00Z', 'yesterday'],
    ['2026-01-01T12:00:00Z', 'Jan 1, 2026'],
    ['garbage', ''],
  ])('%s → %s', (iso, text) => {
    expect(formatNotificationTime(iso, now)).toBe(text);
  });
});

describe('applyNotificationsEvent', () => {
  it('starts from nothing cached and keeps only the list and the count', () => {
    const data = applyNotificationsEvent(undefined, { type: 'received', item: note(1) });
    expect(data).toEqual({ items: [note(1)], unread: 1 });
  });

  it('keeps a row that arrived live while the list was loading', () => {
    const live = applyNotificationsEvent(undefined, { type: 'received', item: note(3) });
    const loaded = applyNotificationsEvent(live, { type: 'loaded', items: [note(2), note(1)], unread: 2 });
    expect(loaded.items.map((item) => item.id)).toEqual([note(3).id, note(2).id, note(1).id]);
    expect(loaded.unread).toBe(3);
  });
});
