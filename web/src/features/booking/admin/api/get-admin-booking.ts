import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type AdminBooking, parseAdminBooking } from '../../admin-bookings.ts';

/** One booking with its internal note, or null when there is none with that id. */
export async function getAdminBooking(id: string): Promise<AdminBooking | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('admin_bookings').select('*').eq('id', id).maybeSingle();
  if (error) throw error;
  return data ? parseAdminBooking(data) : null;
}

export const adminBookingQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['booking', 'admin-detail', { id }], queryFn: () => getAdminBooking(id) });
