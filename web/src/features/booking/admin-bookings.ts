import { parsePage } from '#web/components/ui/paged-table.tsx';
import { PRODUCT_CATEGORIES } from './booking.ts';

/**
 * The admins' view of bookings (issue 15 "Bookings"): statuses, the flow between them, and the list's
 * filters as they are written in the URL (?status=new&date=2026-12-01&category=Edibles&sort=date&page=2).
 */
export const BOOKING_STATUSES = ['new', 'confirmed', 'declined', 'completed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const STATUS_LABELS: Record<BookingStatus, string> = {
  new: 'New',
  confirmed: 'Confirmed',
  declined: 'Declined',
  completed: 'Completed',
};

/** new → confirmed | declined; confirmed → completed (the database enforces the same). */
export function nextStatuses(status: BookingStatus): BookingStatus[] {
  if (status === 'new') return ['confirmed', 'declined'];
  if (status === 'confirmed') return ['completed'];
  return [];
}

export const SORTS = {
  newest: { label: 'Newest requests', column: 'created_at', ascending: false },
  oldest: { label: 'Oldest requests', column: 'created_at', ascending: true },
  date: { label: 'Session date, soonest first', column: 'booking_date', ascending: true },
  'date-desc': { label: 'Session date, latest first', column: 'booking_date', ascending: false },
} as const;
export type BookingSort = keyof typeof SORTS;

export const PAGE_SIZE = 25;

export interface BookingFilters {
  status: BookingStatus | null;
  date: string | null;
  category: string | null;
  sort: BookingSort;
  page: number;
}

const isStatus = (value: string | null): value is BookingStatus =>
  value !== null && (BOOKING_STATUSES as readonly string[]).includes(value);

/** Reads the filters from the URL; anything unknown is ignored rather than sent to the server. */
export function parseBookingFilters(params: URLSearchParams): BookingFilters {
  const status = params.get('status');
  const date = params.get('date');
  const category = params.get('category');
  const sort = params.get('sort');
  return {
    status: isStatus(status) ? status : null,
    date: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    category: category && (PRODUCT_CATEGORIES as readonly string[]).includes(category) ? category : null,
    sort: sort && sort in SORTS ? (sort as BookingSort) : 'newest',
    page: parsePage(params.get('page')),
  };
}

/** The URL's search for filters; defaults are left out so links stay short. */
export function bookingFiltersSearch(filters: BookingFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.date) params.set('date', filters.date);
  if (filters.category) params.set('category', filters.category);
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  if (filters.page > 1) params.set('page', String(filters.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

export interface AdminBooking {
  id: string;
  userId: string | null;
  fullName: string;
  email: string;
  phone: string | null;
  companyName: string | null;
  productName: string;
  productDescription: string | null;
  productCategory: string;
  bookingDate: string;
  bookingTime: string;
  specialRequests: string | null;
  status: BookingStatus;
  statusChangedAt: string | null;
  createdAt: string;
  adminNote: string | null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const optional = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function parseAdminBooking(row: Record<string, unknown>): AdminBooking {
  const status = text(row.status);
  return {
    id: text(row.id),
    userId: optional(row.user_id),
    fullName: text(row.full_name),
    email: text(row.email),
    phone: optional(row.phone),
    companyName: optional(row.company_name),
    productName: text(row.product_name),
    productDescription: optional(row.product_description),
    productCategory: text(row.product_category),
    bookingDate: text(row.booking_date),
    bookingTime: text(row.booking_time),
    specialRequests: optional(row.special_requests),
    status: isStatus(status) ? status : 'new',
    statusChangedAt: optional(row.status_changed_at),
    createdAt: text(row.created_at),
    adminNote: optional(row.admin_note),
  };
}

/** "Mon, Dec 1, 2026" for a yyyy-MM-dd date, read as a calendar day (no time-zone shift). */
export function formatBookingDate(value: string): string {
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day) return value;
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
