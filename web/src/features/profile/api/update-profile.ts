import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { Profile } from '../profile-data.ts';
import { profileQueryOptions } from './get-profile.ts';

/** Product §table-calls profiles: update (username, full_name, bio, avatar_url). Returns the updated row. */
export async function updateProfile(
  userId: string,
  patch: Partial<Pick<Profile, 'username' | 'full_name' | 'bio' | 'avatar_url'>>,
): Promise<Profile> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('profiles')
    .update(patch)
    .eq('user_id', userId)
    .select('user_id, email, full_name, username, bio, avatar_url, created_at, trial_ends_at')
    .single();
  if (error) throw error;
  return data as Profile;
}

/** Saves the profile form; the updated row replaces the cached profile everywhere it is shown. */
export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Parameters<typeof updateProfile>[1]) => updateProfile(userId, patch),
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions(userId).queryKey, profile),
  });
}
