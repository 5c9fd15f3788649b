import { ImageUp, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import type { AvatarUploadStage } from '../api/upload-avatar.ts';
import { useAvatarUpload } from '../hooks/use-avatar-upload.ts';
import type { Profile } from '../profile-data.ts';
import { ProfileAvatar } from './profile-avatar.tsx';

const STAGE_PROGRESS: Record<AvatarUploadStage, number> = { uploading: 30, saving: 70, cleaning: 90 };

interface AvatarUploadCardProps {
  userId: string | null;
  profile: Profile | null;
}

/** Product §avatar: choose, check, preview, then upload. */
export function AvatarUploadCard({ userId, profile }: AvatarUploadCardProps) {
  const hintId = useId();
  const { input, picked, stage, busy, choose, upload, remove, cancel } = useAvatarUpload(userId, profile);
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
                <Button variant="outline" disabled={busy} onClick={cancel}>
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
