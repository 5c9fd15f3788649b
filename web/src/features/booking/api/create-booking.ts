import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { BookingRow } from '../booking.ts';

/**
 * Product §table-calls "bookings: insert with the booking fields". Returns nothing: a visitor may write a
 * booking but not read it back (RLS), so the insert asks for no representation.
 */
export async function createBooking(row: BookingRow): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('bookings').insert(row);
  if (error) throw error;
}

/**
 * A booking request: the member's list reloads after it; after a refusal, the taken slots do (the slot
 * may have been confirmed for someone else meanwhile).
 */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['booking', 'mine'] }),
    onError: () => void queryClient.invalidateQueries({ queryKey: ['booking', 'taken'] }),
  });
}
