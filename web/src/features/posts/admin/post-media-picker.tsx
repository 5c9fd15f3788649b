import { ImagePlus, X } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { checkAvatarFile, SNIFF_BYTES } from '#web/lib/image-file.ts';
import { POST_MEDIA_MAX } from '../posts.ts';
import { uploadPostMedia } from './api/upload-post-media.ts';

/** Images for the post (spec: community-review-media under admin-posts/), checked and uploaded with progress. */
export function MediaPicker({
  urls,
  onChange,
  onInsert,
}: {
  urls: string[];
  onChange: (urls: string[]) => void;
  onInsert: (url: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const id = useId();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    const check = checkAvatarFile(file, head);
    if (!check.ok) {
      toast({ variant: 'destructive', title: check.title, description: check.description });
      return;
    }
    setProgress(0);
    try {
      const url = await uploadPostMedia(file, setProgress);
      onChange([...urls, url]);
      toast({
        title: 'Image uploaded',
        description: 'Insert it into the text, or keep it as the post’s media.',
      });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Failed to upload media', description: errorText(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <fieldset className="grid gap-3 rounded-xl border p-4">
      <legend className="px-1 font-medium text-sm">Media</legend>
      <p id={`${id}-hint`} className="text-muted-foreground text-sm">
        JPEG, PNG, WebP or GIF images up to 5 MB; at most {POST_MEDIA_MAX}. The first one is the post’s
        picture in the news feed.
      </p>
      {urls.length > 0 ? (
        <ul aria-label="Uploaded media" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {urls.map((url, index) => (
            <li key={url} className="grid gap-2 rounded-lg border p-2">
              <img
                src={url}
                alt={`Media ${index + 1}`}
                className="aspect-video w-full rounded object-cover"
              />
              <div className="flex flex-wrap gap-1">
                <Button type="button" size="sm" variant="outline" onClick={() => onInsert(url)}>
                  Insert in text
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove media ${index + 1}`}
                  onClick={() => onChange(urls.filter((other) => other !== url))}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {progress !== null ? (
        <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
      ) : null}
      <div>
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          className="sr-only"
          aria-describedby={`${id}-hint`}
          aria-label="Choose an image to upload"
          tabIndex={-1}
          onChange={(event) => void pick(event)}
        />
        <Button
          type="button"
          variant="outline"
          disabled={progress !== null || urls.length >= POST_MEDIA_MAX}
          onClick={() => input.current?.click()}
        >
          <ImagePlus aria-hidden="true" />
          {progress !== null ? 'Uploading…' : 'Upload an image'}
        </Button>
      </div>
    </fieldset>
  );
}
