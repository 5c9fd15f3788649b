import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type AdminBooking, parseAdminBooking } from '../admin-bookings.ts';

export type MyBooking = Pick<
  AdminBooking,
  'id' | 'productName' | 'productCategory' | 'bookingDate' | 'bookingTime' | 'status' | 'createdAt'
>;

/** The member's own bookings, newest request first (RLS: owners read their own). */
export async function getMyBookings(userId: string): Promise<MyBooking[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('bookings')
    .select('id, product_name, product_category, booking_date, booking_time, status, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(50);
  if (error) throw error;
  return (data ?? []).map(parseAdminBooking);
}

/** Refetched every 30 s and on focus, so a confirmation shows without a reload. */
export const myBookingsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['booking', 'mine', { userId }],
    queryFn: userId ? () => getMyBookings(userId) : skipToken,
    refetchInterval: 30_000,
  });
