import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { Profile } from '../profile-data.ts';

/** Product §table-calls profiles: the member's profile (null when the row is missing). */
export async function getProfile(userId: string): Promise<Profile | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('profiles')
    .select('user_id, email, full_name, username, bio, avatar_url, created_at, trial_ends_at')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return data as Profile | null;
}

/** The member's profile row; writes put the row they got back into this key (no refetch). */
export const profileQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['profile', 'profile', { userId }],
    queryFn: userId ? () => getProfile(userId) : skipToken,
  });
