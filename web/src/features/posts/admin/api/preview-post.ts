import { queryOptions } from '@tanstack/react-query';
import { invokeFunction } from '#web/lib/invoke-function.ts';

/** Exactly the HTML saving would store (functions/v1/admin-post-preview). */
export function previewPost(content: string): Promise<string> {
  return invokeFunction<{ html: string }>('admin-post-preview', { content }).then((answer) => answer.html);
}

/** The editor's Preview tab: nothing is asked for an empty text. */
export const postPreviewQueryOptions = (content: string) =>
  queryOptions({
    queryKey: ['posts', 'preview', { content }],
    queryFn: () => previewPost(content),
    enabled: content.trim() !== '',
  });
