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
