import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import {
  type AdminBooking,
  type BookingFilters,
  PAGE_SIZE,
  parseAdminBooking,
  SORTS,
} from '../../admin-bookings.ts';

/** One page of the admins' booking list (public.admin_bookings: rows only for admins) and the total. */
export async function getAdminBookings(
  filters: BookingFilters,
): Promise<{ rows: AdminBooking[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  const sort = SORTS[filters.sort];
  let query = supabase.from('admin_bookings').select('*', { count: 'estimated' });
  if (filters.status) query = query.eq('status', filters.status);
  if (filters.date) query = query.eq('booking_date', filters.date);
  if (filters.category) query = query.eq('product_category', filters.category);
  // Orders that match an index (bookings_created_at_id_idx, bookings_date_time_id_idx), tie-breaker included.
  query = query.order(sort.column, { ascending: sort.ascending });
  if (sort.column === 'booking_date') query = query.order('booking_time', { ascending: sort.ascending });
  const from = (filters.page - 1) * PAGE_SIZE;
  const answer = await query.order('id', { ascending: sort.ascending }).range(from, from + PAGE_SIZE - 1);
  return listPage(answer, parseAdminBooking);
}

export const adminBookingsQueryOptions = (filters: BookingFilters) =>
  queryOptions({
    queryKey: ['booking', 'admin-list', filters],
    queryFn: () => getAdminBookings(filters),
    placeholderData: keepPreviousData,
  });
