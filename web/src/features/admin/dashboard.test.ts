import { describe, expect, it } from 'vitest';
import { formatCount, parseDashboardCounts } from './dashboard.ts';

describe('parseDashboardCounts', () => {
  it('reads the counts and treats anything else as zero', () => {
    expect(
      parseDashboardCounts({
        reports_waiting: 3,
        bookings_new: '7',
        members_total: 12_000,
        members_new_week: null,
      }),
    ).toEqual({
      reportsWaiting: 3,
      bookingsNew: 0,
      postsPublishedWeek: 0,
      membersTotal: 12_000,
      membersNewWeek: 0,
      securityEventsDay: 0,
      securityEventsHighDay: 0,
    });
    expect(parseDashboardCounts(null).membersTotal).toBe(0);
  });

  it('formats counts with thousands separators', () => {
    expect(formatCount(100_000)).toBe('100,000');
  });
});
