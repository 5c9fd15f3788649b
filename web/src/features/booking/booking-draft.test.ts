import { describe, expect, it } from 'vitest';
import { EMPTY_BOOKING } from './booking.ts';
import { bookingDraftText, readBookingDraft } from './booking-draft.ts';

describe("a visitor's booking draft (decision 242)", () => {
  it('reads back what was typed, and nothing that is not a draft of these fields', () => {
    const typed = { ...EMPTY_BOOKING, fullName: 'Jo Grower', specialRequests: 'Mornings, please.' };
    expect(readBookingDraft(bookingDraftText(typed))).toEqual(typed);
    expect(readBookingDraft(null)).toBeNull();
    expect(readBookingDraft('not json')).toBeNull();
    expect(readBookingDraft('[1,2]')).toBeNull();
    expect(readBookingDraft(JSON.stringify({ fullName: 3, other: 'x' }))).toBeNull();
    expect(readBookingDraft(JSON.stringify({ productName: 'Kush', extra: 'ignored' }))).toEqual({
      ...EMPTY_BOOKING,
      productName: 'Kush',
    });
  });

  it('keeps nothing for an empty form', () => {
    expect(bookingDraftText(EMPTY_BOOKING)).toBeNull();
  });
});
