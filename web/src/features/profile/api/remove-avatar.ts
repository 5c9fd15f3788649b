import { loadSupabase } from '#web/lib/supabase.ts';
import { AVATAR_BUCKET, avatarPathOf, type Profile } from '../profile-data.ts';
import { updateProfile, useProfileMutation } from './update-profile.ts';

/** Product §avatar: Remove deletes the file and sets the avatar to null. */
export async function removeAvatar(userId: string, avatarUrl: string | null): Promise<Profile> {
  const supabase = await loadSupabase();
  const path = avatarPathOf(avatarUrl, userId);
  if (path) {
    const { error } = await supabase.storage.from(AVATAR_BUCKET).remove([path]);
    if (error) throw error;
  }
  return updateProfile(userId, { avatar_url: null });
}

/** Removes the avatar; the saved profile replaces the cached one. */
export function useRemoveAvatar() {
  return useProfileMutation(({ userId, avatarUrl }: { userId: string; avatarUrl: string | null }) =>
    removeAvatar(userId, avatarUrl),
  );
}
