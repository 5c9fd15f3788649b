import { describe, expect, it } from 'vitest';
import {
  type AdminMember,
  memberAccess,
  memberFiltersSearch,
  memberName,
  parseAdminMember,
  parseMemberFilters,
} from './members.ts';

describe('member filters in the URL', () => {
  it('reads what it knows and ignores the rest', () => {
    const filters = parseMemberFilters(
      new URLSearchParams('q=%20Morgan%20&role=admin&status=suspended&sort=name&page=3'),
    );
    expect(filters).toEqual({ q: 'Morgan', role: 'admin', status: 'suspended', sort: 'name', page: 3 });
    expect(parseMemberFilters(new URLSearchParams('role=owner&status=x&sort=drop&page=-2'))).toEqual({
      q: '',
      role: null,
      status: null,
      sort: 'newest',
      page: 1,
    });
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(memberFiltersSearch(parseMemberFilters(new URLSearchParams('')))).toBe('');
    const filters = parseMemberFilters(new URLSearchParams('q=a%26b&status=active&page=2'));
    expect(parseMemberFilters(new URLSearchParams(memberFiltersSearch(filters)))).toEqual(filters);
  });

  it('cuts an over-long search', () => {
    expect(parseMemberFilters(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
  });
});

const base: AdminMember = parseAdminMember({
  id: '6f1c2a52-7a42-4c1e-9d55-0f4b3d6b2c11',
  email: 'morgan@example.com',
  username: 'morgan',
  full_name: null,
  created_at: '2026-11-01T12:00:00Z',
  suspended: false,
  is_admin: false,
  subscription_status: null,
  report_count: '3',
  booking_count: 1,
  trial_ends_at: '2026-11-08T12:00:00Z',
});

describe('parseAdminMember', () => {
  it('reads counts sent as strings (bigint) and defaults what is missing', () => {
    expect(base.reportCount).toBe(3);
    expect(base.bookingCount).toBe(1);
    expect(base.lastSignInAt).toBeNull();
    expect(memberName(base)).toBe('@morgan');
  });
});

describe('memberAccess', () => {
  const now = new Date('2026-11-05T12:00:00Z');
  it('describes admins, subscribers, cancellations, trials and the rest', () => {
    expect(memberAccess({ ...base, isAdmin: true }, now)).toBe('Admin (always has access)');
    expect(memberAccess(base, now)).toBe('Free trial until Nov 8, 2026');
    expect(
      memberAccess(
        { ...base, subscriptionStatus: 'active', subscriptionExpiresAt: '2026-12-05T12:00:00Z' },
        now,
      ),
    ).toBe('Subscribed, renews Dec 5, 2026');
    expect(
      memberAccess(
        { ...base, subscriptionStatus: 'cancelled', subscriptionExpiresAt: '2026-11-20T12:00:00Z' },
        now,
      ),
    ).toBe('Subscription cancelled, access until Nov 20, 2026');
    expect(memberAccess(base, new Date('2026-11-10T12:00:00Z'))).toBe('No access (trial ended)');
    expect(
      memberAccess(
        { ...base, subscriptionStatus: 'active', subscriptionExpiresAt: '2026-11-09T12:00:00Z' },
        new Date('2026-11-10T12:00:00Z'),
      ),
    ).toBe('Subscription ended Nov 9, 2026');
  });
});
