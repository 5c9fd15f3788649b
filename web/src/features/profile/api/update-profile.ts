import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { Profile } from '../profile-data.ts';
import { profileQueryOptions } from './get-profile.ts';

export type ProfilePatch = Partial<Pick<Profile, 'username' | 'full_name' | 'bio' | 'avatar_url'>>;

/** Product §table-calls profiles: update (username, full_name, bio, avatar_url). Returns the updated row. */
export async function updateProfile(userId: string, patch: ProfilePatch): Promise<Profile> {
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

/**
 * A write that answers with the member's saved profile row (the form, the avatar): the row replaces the
 * cached profile everywhere it is shown.
 */
export function useProfileMutation<Input extends { userId: string }>(
  write: (input: Input) => Promise<Profile>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (profile, { userId }) =>
      queryClient.setQueryData(profileQueryOptions(userId).queryKey, profile),
  });
}

/** Saves the profile form. */
export function useUpdateProfile() {
  return useProfileMutation(({ userId, patch }: { userId: string; patch: ProfilePatch }) =>
    updateProfile(userId, patch),
  );
}
