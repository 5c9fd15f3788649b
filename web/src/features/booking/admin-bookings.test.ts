import { describe, expect, it } from 'vitest';
import {
  bookingFiltersSearch,
  formatBookingDate,
  nextStatuses,
  parseBookingFilters,
} from './admin-bookings.ts';

describe('booking filters in the URL', () => {
  it('reads known values and ignores the rest', () => {
    expect(
      parseBookingFilters(
        new URLSearchParams('status=new&date=2026-12-01&category=Edibles&sort=date&page=3'),
      ),
    ).toEqual({ status: 'new', date: '2026-12-01', category: 'Edibles', sort: 'date', page: 3 });
    expect(
      parseBookingFilters(
        new URLSearchParams("status=approved&date=tomorrow&category=<b>&sort=x';--&page=-1"),
      ),
    ).toEqual({ status: null, date: null, category: null, sort: 'newest', page: 1 });
  });

  it('writes only what differs from the defaults', () => {
    expect(bookingFiltersSearch({ status: null, date: null, category: null, sort: 'newest', page: 1 })).toBe(
      '',
    );
    expect(
      bookingFiltersSearch({ status: 'confirmed', date: null, category: 'Seeds', sort: 'oldest', page: 2 }),
    ).toBe('?status=confirmed&category=Seeds&sort=oldest&page=2');
  });
});

describe('the status flow', () => {
  it('goes from new to confirmed or declined, and from confirmed to completed', () => {
    expect(nextStatuses('new')).toEqual(['confirmed', 'declined']);
    expect(nextStatuses('confirmed')).toEqual(['completed']);
    expect(nextStatuses('declined')).toEqual([]);
    expect(nextStatuses('completed')).toEqual([]);
  });
});

describe('formatting', () => {
  it('writes calendar days without shifting them', () => {
    expect(formatBookingDate('2026-12-01')).toBe('Tue, Dec 1, 2026');
  });
});
