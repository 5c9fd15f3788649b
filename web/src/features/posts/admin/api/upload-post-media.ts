import { fileExtension, uploadPublicFile } from '#web/lib/upload-with-progress.ts';

/** Post media go to community-review-media under admin-posts/ with a random name. */
export function uploadPostMedia(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return uploadPublicFile(
    'community-review-media',
    `admin-posts/${crypto.randomUUID()}.${fileExtension(file.name)}`,
    file,
    onProgress,
  );
}
