import { loadSupabase } from '#web/lib/supabase.ts';
import { AVATAR_BUCKET, avatarPathFor, avatarPathOf, type Profile } from '../profile-data.ts';
import { updateProfile, useProfileMutation } from './update-profile.ts';

/** The stages of an avatar upload, for the progress bar. */
export type AvatarUploadStage = 'uploading' | 'saving' | 'cleaning';

/**
 * Product §avatar: upload to user-uploads at {userId}/avatar-{timestamp}.{ext} (cache control 3600,
 * no overwrite), store the public URL in the profile, then delete the previous file. When the profile
 * cannot be saved the new file is removed again, so no upload is left behind.
 */
export async function uploadAvatar(
  userId: string,
  file: File,
  extension: string,
  previousUrl: string | null,
  onStage: (stage: AvatarUploadStage) => void,
): Promise<Profile> {
  const supabase = await loadSupabase();
  const storage = supabase.storage.from(AVATAR_BUCKET);
  const path = avatarPathFor(userId, extension, Date.now());
  onStage('uploading');
  const uploaded = await storage.upload(path, file, {
    cacheControl: '3600',
    upsert: false,
    contentType: file.type,
  });
  if (uploaded.error) throw uploaded.error;
  onStage('saving');
  let profile: Profile;
  try {
    profile = await updateProfile(userId, { avatar_url: storage.getPublicUrl(path).data.publicUrl });
  } catch (error) {
    await storage.remove([path]).catch(() => {});
    throw error;
  }
  onStage('cleaning');
  const previous = avatarPathOf(previousUrl, userId);
  // The new picture is saved: a leftover old file is not worth failing the upload for.
  if (previous && previous !== path) await storage.remove([previous]).catch(() => {});
  return profile;
}

interface AvatarUpload {
  userId: string;
  file: File;
  extension: string;
  previousUrl: string | null;
  onStage: (stage: AvatarUploadStage) => void;
}

/** Uploads a new avatar; the saved profile replaces the cached one. */
export function useUploadAvatar() {
  return useProfileMutation((upload: AvatarUpload) =>
    uploadAvatar(upload.userId, upload.file, upload.extension, upload.previousUrl, upload.onStage),
  );
}
