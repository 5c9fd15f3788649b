import { useCallback, useEffect, useRef } from 'react';
import { removeStoredLogo } from './logo.ts';

/**
 * The files a logo form stored while it was open. Saving keeps the one saved and removes the others (a
 * second upload replaced the first); closing without saving removes them all, so a cancelled form leaves
 * no file in the brand's folder. Best effort, like removeStoredLogo: a page closed mid-edit may still
 * leave one.
 */
export function useLogoUploads(brandId: string | undefined) {
  const uploads = useRef<string[]>([]);
  const discard = useCallback(() => {
    if (!brandId) return;
    for (const url of uploads.current.splice(0)) void removeStoredLogo(url, brandId);
  }, [brandId]);
  // Unmounted (the form closed) with uploads not saved: they go.
  useEffect(() => discard, [discard]);
  return {
    /** A file the form stored. */
    add: useCallback((url: string) => void uploads.current.push(url), []),
    /** The form saved `kept`: every other file it stored goes. */
    keep: useCallback(
      (kept: string | null) => {
        uploads.current = uploads.current.filter((url) => url !== kept);
        discard();
      },
      [discard],
    ),
    /** The form was closed without saving. */
    discard,
  };
}
