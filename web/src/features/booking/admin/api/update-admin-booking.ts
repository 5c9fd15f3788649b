import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refusalOf } from '#web/lib/refusals.ts';
import { asUserFacing } from '#web/lib/server-message.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { BookingStatus } from '../../admin-bookings.ts';

export interface BookingUpdate {
  id: string;
  status?: BookingStatus;
  note?: string;
}

/** public.admin_update_booking: a new status, a new internal note, or both (admins only). */
export async function updateAdminBooking({ id, status, note }: BookingUpdate): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.rpc('admin_update_booking', {
    booking_id: id,
    status: status ?? null,
    note: note ?? null,
  });
  // A rule of the mapping travels as it came, so the note editor shows it at the note (decision 180).
  if (error) throw refusalOf(error) ? error : asUserFacing(error);
}

export function useUpdateAdminBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminBooking,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['booking'] }),
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
      ]),
  });
}
