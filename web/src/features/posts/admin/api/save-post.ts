import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invokeFunction } from '#web/lib/invoke-function.ts';
import { type AdminPost, fromLocalInput, type PostValues, parseAdminPost } from '../../posts.ts';

/** Creates (no id) or updates a post through the server, which renders the Markdown (functions/v1/admin-post-save). */
export function savePost({ id, values }: { id: string | null; values: PostValues }): Promise<AdminPost> {
  return invokeFunction<Record<string, unknown>>('admin-post-save', {
    ...(id ? { id } : {}),
    title: values.title.trim(),
    content: values.content,
    featured: values.featured,
    status: values.status,
    publish_at: fromLocalInput(values.publishAt),
    media_urls: values.mediaUrls,
  }).then(parseAdminPost);
}

export function useSavePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePost,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['posts'] }),
        queryClient.invalidateQueries({ queryKey: ['news'] }),
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
      ]),
  });
}
