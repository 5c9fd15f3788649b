import { PRODUCT_CATEGORIES, type ProductCategory } from '#web/lib/product-categories.ts';
import { type FieldRule, formProblems, hasProblems } from '#web/lib/security/field-rules.ts';

export { PRODUCT_CATEGORIES, type ProductCategory };

/**
 * The promo-session booking form's rules (product §booking, §data bookings). The
 * length limits are the database's (supabase/migrations/20261121100600_scammer_reports_and_bookings.sql),
 * so what passes here is what the server stores.
 */

/** Half-hour steps from 09:00 through 17:00: 17 slots. */
export const TIME_SLOTS: readonly string[] = Array.from({ length: 17 }, (_, index) => {
  const minutes = 9 * 60 + index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
});

/**
 * The one time zone every slot is in (decision 166): a slot is a time at the HighGrade team's studio,
 * so "taken" means the same half-hour for every booker, wherever they are.
 */
export const BOOKING_TIME_ZONE = 'America/Los_Angeles';
/** How the slots name that zone. */
export const BOOKING_TIME_ZONE_LABEL = 'Pacific Time';
/** Its short name after a time: "09:30 PT". */
export const BOOKING_TIME_ZONE_SHORT = 'PT';

/** "09:30 PT": a slot as it is shown wherever a booking's time appears. */
export function slotWithZone(slot: string): string {
  return `${slot} ${BOOKING_TIME_ZONE_SHORT}`;
}

/**
 * The slot on that day as the reader's clock shows it ("18:30"), or null when the reader's zone is the
 * booking zone's (or the day or slot cannot be read). `timeZone` is the reader's IANA zone.
 */
export function slotInZone(day: string, slot: string, timeZone: string): string | null {
  const [year, month, date] = day.split('-').map(Number);
  const [hour, minute] = slot.split(':').map(Number);
  if (!year || !month || !date || hour === undefined || minute === undefined) return null;
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  // The booking zone's offset at that moment, found by reading the wall time back in that zone.
  const offsetOf = (at: number, zone: string) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(at);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute')) - at;
  };
  let instant = wall - offsetOf(wall, BOOKING_TIME_ZONE);
  instant = wall - offsetOf(instant, BOOKING_TIME_ZONE);
  if (offsetOf(instant, timeZone) === offsetOf(instant, BOOKING_TIME_ZONE)) return null;
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
    timeZoneName: 'short',
  }).format(instant);
}

export const DATE_TIME_REQUIRED = 'Please select a date and time.';

/** How far ahead the calendar goes (the server refuses dates more than a year ahead). */
export const BOOKING_HORIZON_DAYS = 365;

export interface BookingValues {
  fullName: string;
  email: string;
  phone: string;
  companyName: string;
  productName: string;
  productCategory: string;
  productDescription: string;
  specialRequests: string;
}
export type BookingField = keyof BookingValues;

export const EMPTY_BOOKING: BookingValues = {
  fullName: '',
  email: '',
  phone: '',
  companyName: '',
  productName: '',
  productCategory: '',
  productDescription: '',
  specialRequests: '',
};

/** Field limits as the inputs' maxLength (the database's maxima). */
export const BOOKING_MAX_LENGTH: Record<Exclude<BookingField, 'productCategory'>, number> = {
  fullName: 100,
  email: 254,
  phone: 30,
  companyName: 200,
  productName: 200,
  productDescription: 2000,
  specialRequests: 2000,
};

export const BOOKING_RULES: Record<Exclude<BookingField, 'productCategory'>, FieldRule> = {
  fullName: { label: 'Full Name', required: true, length: { min: 2, max: 100 }, noHtml: true },
  email: { label: 'Email', required: true, format: 'email' },
  phone: { label: 'Phone', format: 'phone' },
  companyName: { label: 'Company Name', length: { min: 1, max: 200 } },
  productName: { label: 'Product Name', required: true, length: { min: 1, max: 200 } },
  productDescription: { label: 'Product Description', length: { min: 1, max: 2000 } },
  specialRequests: { label: 'Special Requests', length: { min: 1, max: 2000 } },
};

export type BookingProblems = Partial<Record<BookingField | 'schedule', string | null>>;

function categoryProblem(value: string): string | null {
  if (value === '') return 'Product Category is required.';
  return (PRODUCT_CATEGORIES as readonly string[]).includes(value)
    ? null
    : 'Please select a product category.';
}

/** Every field's problem, and the schedule's ("Please select a date and time."). */
export function bookingProblems(
  values: BookingValues,
  date: Date | undefined,
  time: string | undefined,
): BookingProblems {
  const { productCategory, ...texts } = values;
  return {
    ...formProblems(texts, BOOKING_RULES),
    productCategory: categoryProblem(productCategory),
    schedule: date && time && TIME_SLOTS.includes(time) ? null : DATE_TIME_REQUIRED,
  };
}

export { hasProblems };

/** A calendar date as yyyy-MM-dd in the visitor's own time zone (the day they picked). */
export function formatBookingDate(date: Date): string {
  return [
    String(date.getFullYear()).padStart(4, '0'),
    String(date.getMonth() + 1).padStart(2, '0'),
    String(date.getDate()).padStart(2, '0'),
  ].join('-');
}

/** Midnight of the visitor's today: earlier dates are disabled (product §booking). */
export function startOfToday(now: Date = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

export interface BookingRow {
  user_id: string | null;
  full_name: string;
  email: string;
  phone: string | null;
  company_name: string | null;
  product_name: string;
  product_description: string | null;
  product_category: string;
  booking_date: string;
  booking_time: string;
  special_requests: string | null;
}

const optional = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * The row to insert (product §data): trimmed text, empty optional fields as null, the member's id or null.
 */
export function toBookingRow(
  values: BookingValues,
  date: Date,
  time: string,
  userId: string | null,
): BookingRow {
  return {
    user_id: userId,
    full_name: values.fullName.trim(),
    email: values.email.trim(),
    phone: optional(values.phone),
    company_name: optional(values.companyName),
    product_name: values.productName.trim(),
    product_description: optional(values.productDescription),
    product_category: values.productCategory,
    booking_date: formatBookingDate(date),
    booking_time: time,
    special_requests: optional(values.specialRequests),
  };
}
