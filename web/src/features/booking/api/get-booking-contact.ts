import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** The signed-in member's name (profiles.full_name), to prefill the booking form. */
export async function getBookingContactName(userId: string): Promise<string> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('profiles')
    .select('full_name')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return typeof data?.full_name === 'string' ? data.full_name : '';
}

export const bookingContactQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['booking', 'contact', { userId }],
    queryFn: userId ? () => getBookingContactName(userId) : skipToken,
    staleTime: 5 * 60_000,
  });
