import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { formatBookingDate } from '../booking.ts';

/** The slots admins already confirmed in a range, as "yyyy-MM-dd HH:mm" (rpc taken_booking_slots). */
export async function getTakenSlots(from: Date, to: Date): Promise<Set<string>> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('taken_booking_slots', {
    from_date: formatBookingDate(from),
    to_date: formatBookingDate(to),
  });
  if (error) throw error;
  return new Set(
    ((data ?? []) as { booking_date: string; booking_time: string }[]).map(
      (slot) => `${slot.booking_date} ${slot.booking_time}`,
    ),
  );
}

export const takenSlotsQueryOptions = (from: Date, to: Date) =>
  queryOptions({
    queryKey: ['booking', 'taken', formatBookingDate(from), formatBookingDate(to)],
    queryFn: () => getTakenSlots(from, to),
    staleTime: 60_000,
  });
