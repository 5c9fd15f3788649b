import { loadSupabase } from '../../../lib/supabase.ts';
import type { Profile } from '../profile-data.ts';

/** Spec §7 profiles: the member's profile (null when the row is missing). */
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
