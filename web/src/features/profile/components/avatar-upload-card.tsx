import { ImageUp, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { IMAGE_EXTENSIONS, type ImageFormat, inspectAvatarFile } from '#web/lib/image-file.ts';
import { type AvatarUploadStage, useRemoveAvatar, useUploadAvatar } from '../api/avatar.ts';
import type { Profile } from '../profile-data.ts';
import { ProfileAvatar } from './profile-avatar.tsx';

const STAGE_PROGRESS: Record<AvatarUploadStage, number> = { uploading: 30, saving: 70, cleaning: 90 };

interface Picked {
  file: File;
  format: ImageFormat;
  preview: string;
}

interface AvatarUploadCardProps {
  userId: string | null;
  profile: Profile | null;
}

/** Product §avatar: choose, check, preview, then upload. */
export function AvatarUploadCard({ userId, profile }: AvatarUploadCardProps) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
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

  const busy = stage !== null || avatarRemoval.isPending;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Picture</CardTitle>
        <CardDescription>Choose a photo, check the preview, then upload it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-6">
          {picked ? (
            <img
              src={picked.preview}
              alt="Preview of your new avatar"
              className="size-24 rounded-full border object-cover"
            />
          ) : (
            <ProfileAvatar profile={profile} />
          )}
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              type="file"
              accept="image/*"
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              data-testid="avatar-file-input"
              onChange={(event) => void choose(event.target.files?.[0])}
            />
            {picked ? (
              <>
                <Button disabled={busy} onClick={() => void upload()}>
                  <ImageUp aria-hidden="true" />
                  {stage ? 'Uploading...' : 'Upload Photo'}
                </Button>
                <Button variant="outline" disabled={busy} onClick={() => setPicked(null)}>
                  Cancel
                </Button>
              </>
            ) : (
              <Button
                variant="outline"
                disabled={busy}
                aria-describedby={hintId}
                onClick={() => input.current?.click()}
              >
                Choose Photo
              </Button>
            )}
            {profile?.avatar_url && !picked ? (
              <Button variant="ghost" disabled={busy} onClick={() => void remove()}>
                <Trash2 aria-hidden="true" />
                Remove Photo
              </Button>
            ) : null}
          </div>
        </div>
        {stage ? <Progress value={STAGE_PROGRESS[stage]} aria-label="Upload progress" /> : null}
        <p id={hintId} className="text-muted-foreground text-sm">
          Max file size: 5MB. Supported formats: JPG, PNG, WebP
        </p>
      </CardContent>
    </Card>
  );
}
