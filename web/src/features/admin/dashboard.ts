/** The dashboard home's counts (admin_dashboard_counts), checked field by field. */
export interface DashboardCounts {
  reportsWaiting: number;
  bookingsNew: number;
  postsPublishedWeek: number;
  membersTotal: number;
  membersNewWeek: number;
  securityEventsDay: number;
  securityEventsHighDay: number;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function parseDashboardCounts(row: unknown): DashboardCounts {
  const data = (row && typeof row === 'object' ? row : {}) as Record<string, unknown>;
  return {
    reportsWaiting: count(data.reports_waiting),
    bookingsNew: count(data.bookings_new),
    postsPublishedWeek: count(data.posts_published_week),
    membersTotal: count(data.members_total),
    membersNewWeek: count(data.members_new_week),
    securityEventsDay: count(data.security_events_day),
    securityEventsHighDay: count(data.security_events_high_day),
  };
}

const NUMBER = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return NUMBER.format(value);
}
