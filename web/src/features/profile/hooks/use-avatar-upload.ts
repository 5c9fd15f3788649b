import { useEffect, useRef, useState } from 'react';
import { toast } from '#web/components/ui/use-toast.ts';
import { IMAGE_EXTENSIONS, type ImageFormat, inspectAvatarFile } from '#web/lib/image-file.ts';
import { useRemoveAvatar } from '../api/remove-avatar.ts';
import { type AvatarUploadStage, useUploadAvatar } from '../api/upload-avatar.ts';
import type { Profile } from '../profile-data.ts';

interface Picked {
  file: File;
  format: ImageFormat;
  preview: string;
}

/**
 * Product §avatar, the card's state: the file input, the picked file with its preview (checked first),
 * the upload's stage, and the upload and removal with what they say when they fail.
 */
export function useAvatarUpload(userId: string | null, profile: Profile | null) {
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [stage, setStage] = useState<AvatarUploadStage | null>(null);
  const avatarUpload = useUploadAvatar();
  const avatarRemoval = useRemoveAvatar();

  // The preview's object URL lives as long as the pick.
  useEffect(() => () => (picked ? URL.revokeObjectURL(picked.preview) : undefined), [picked]);

  async function choose(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    const check = await inspectAvatarFile(file).catch(
      () => ({ ok: false, title: 'Invalid file type', description: 'Please select an image file.' }) as const,
    );
    if (!check.ok) {
      toast({ variant: 'destructive', title: check.title, description: check.description });
      return;
    }
    setPicked({ file, format: check.format, preview: URL.createObjectURL(file) });
  }

  async function upload() {
    if (!picked) return;
    if (!userId) {
      toast({ variant: 'destructive', title: 'Error', description: 'No authenticated user' });
      return;
    }
    setStage('uploading');
    try {
      await avatarUpload.mutateAsync({
        userId,
        file: picked.file,
        extension: IMAGE_EXTENSIONS[picked.format],
        previousUrl: profile?.avatar_url ?? null,
        onStage: setStage,
      });
      setPicked(null);
      toast({ title: 'Profile picture updated', description: 'Your new profile picture is saved.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Upload failed',
        description: 'Failed to upload profile picture.',
      });
    } finally {
      setStage(null);
    }
  }

  async function remove() {
    if (!userId) {
      toast({ variant: 'destructive', title: 'Error', description: 'No authenticated user' });
      return;
    }
    try {
      await avatarRemoval.mutateAsync({ userId, avatarUrl: profile?.avatar_url ?? null });
      toast({ title: 'Profile picture removed' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Remove failed',
        description: 'Failed to remove profile picture.',
      });
    }
  }

  return {
    input,
    picked,
    stage,
    busy: stage !== null || avatarRemoval.isPending,
    choose,
    upload,
    remove,
    cancel: () => setPicked(null),
  };
}
