import { describe, expect, it } from 'vitest';
import {
  BOOKING_MAX_LENGTH,
  bookingProblems,
  DATE_TIME_REQUIRED,
  EMPTY_BOOKING,
  formatBookingDate,
  hasProblems,
  PRODUCT_CATEGORIES,
  slotInZone,
  slotWithZone,
  startOfToday,
  TIME_SLOTS,
  toBookingRow,
} from './booking.ts';

const filled = {
  ...EMPTY_BOOKING,
  fullName: 'Jamie Rivera',
  email: 'jamie@brand.example',
  productName: 'Sunset Sherbet',
  productCategory: 'Flower',
};
const day = new Date(2027, 0, 5);

describe('booking constants (product §booking)', () => {
  it('has the 17 half-hour slots from 09:00 through 17:00', () => {
    expect(TIME_SLOTS).toHaveLength(17);
    expect(TIME_SLOTS[0]).toBe('09:00');
    expect(TIME_SLOTS[1]).toBe('09:30');
    expect(TIME_SLOTS[16]).toBe('17:00');
  });

  it('has the eight product categories in order', () => {
    expect(PRODUCT_CATEGORIES).toEqual([
      'Flower',
      'Concentrates',
      'Edibles',
      'Vape Cartridges',
      'Topicals',
      'Accessories',
      'Seeds',
      'Other',
    ]);
  });
});

describe('bookingProblems (product §booking)', () => {
  it('requires full name, email, product name, product category, and a date and time', () => {
    const problems = bookingProblems(EMPTY_BOOKING, undefined, undefined);
    expect(problems).toMatchObject({
      fullName: 'Full Name is required.',
      email: 'Email is required.',
      productName: 'Product Name is required.',
      productCategory: 'Product Category is required.',
      phone: null,
      companyName: null,
      productDescription: null,
      specialRequests: null,
      schedule: DATE_TIME_REQUIRED,
    });
    expect(DATE_TIME_REQUIRED).toBe('Please select a date and time.');
  });

  it('asks for a date and time when either is missing', () => {
    expect(bookingProblems(filled, day, undefined).schedule).toBe(DATE_TIME_REQUIRED);
    expect(bookingProblems(filled, undefined, '10:00').schedule).toBe(DATE_TIME_REQUIRED);
    expect(bookingProblems(filled, day, '08:30').schedule).toBe(DATE_TIME_REQUIRED);
    expect(hasProblems(bookingProblems(filled, day, '10:00'))).toBe(false);
  });

  it('checks email, phone, lengths, markup and the category', () => {
    const problems = bookingProblems(
      {
        ...filled,
        fullName: '<b>J</b>',
        email: 'jamie@',
        phone: '12345',
        productCategory: 'Snacks',
        specialRequests: 'x'.repeat(2001),
      },
      day,
      '10:00',
    );
    expect(problems).toMatchObject({
      fullName: 'Full Name must not contain HTML.',
      email: 'Please enter a valid email address.',
      phone: 'Please enter a valid phone number.',
      productCategory: 'Please select a product category.',
      specialRequests: 'Special Requests must be between 1 and 2000 characters.',
    });
    expect(
      bookingProblems({ ...filled, productDescription: 'javascript:alert(1)' }, day, '10:00')
        .productDescription,
    ).toBe('Product Description must not contain script markup.');
    expect(BOOKING_MAX_LENGTH.fullName).toBe(100);
  });
});

describe('the stored row (product §data)', () => {
  it('formats the date as yyyy-MM-dd in local time', () => {
    expect(formatBookingDate(new Date(2027, 0, 5, 23, 59))).toBe('2027-01-05');
    expect(formatBookingDate(new Date(2026, 11, 31))).toBe('2026-12-31');
  });

  it('starts the calendar at the local midnight of today', () => {
    expect(startOfToday(new Date(2026, 10, 21, 22, 15))).toEqual(new Date(2026, 10, 21));
  });

  it('trims text, saves empty optional fields as null and carries the user id', () => {
    expect(
      toBookingRow(
        { ...filled, fullName: '  Jamie Rivera ', phone: ' ', companyName: 'Acme' },
        day,
        '13:30',
        null,
      ),
    ).toEqual({
      user_id: null,
      full_name: 'Jamie Rivera',
      email: 'jamie@brand.example',
      phone: null,
      company_name: 'Acme',
      product_name: 'Sunset Sherbet',
      product_description: null,
      product_category: 'Flower',
      booking_date: '2027-01-05',
      booking_time: '13:30',
      special_requests: null,
    });
    expect(toBookingRow(filled, day, '09:00', 'user-1').user_id).toBe('user-1');
  });
});

describe('the slots time zone (decision 166)', () => {
  it('names the zone after a slot', () => {
    expect(slotWithZone('09:30')).toBe('09:30 PT');
  });

  it('gives the reader their own clock time, or nothing in the booking zone', () => {
    // Winter: Pacific Standard Time (UTC-8); summer: daylight time (UTC-7).
    expect(slotInZone('2027-01-15', '09:00', 'UTC')).toBe('Fri, 17:00 UTC');
    expect(slotInZone('2027-07-15', '09:00', 'UTC')).toBe('Thu, 16:00 UTC');
    expect(slotInZone('2027-01-15', '17:00', 'Asia/Tokyo')).toBe('Sat, 10:00 GMT+9');
    expect(slotInZone('2027-01-15', '09:00', 'America/Los_Angeles')).toBeNull();
    expect(slotInZone('2027-01-15', '09:00', 'America/Tijuana')).toBeNull();
    expect(slotInZone('nonsense', '09:00', 'UTC')).toBeNull();
  });
});
