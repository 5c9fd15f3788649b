import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { invokeFunction } from '#web/lib/invoke-function.ts';
import { asUserFacing } from '#web/lib/server-message.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { fileExtension, uploadPublicFile } from '#web/lib/upload-with-progress.ts';
import {
  type AdminPost,
  fromLocalInput,
  POST_SORTS,
  type PostFilters,
  type PostValues,
  parseAdminPost,
} from '../posts.ts';

export const POSTS_PAGE_SIZE = 25;
const COLUMNS =
  'id, title, content, body_html, featured, status, publish_at, media_urls, created_at, updated_at';

/** One page of the posts in a state (admins read drafts and scheduled posts too). */
export async function getAdminPosts(filters: PostFilters): Promise<{ rows: AdminPost[]; total: number }> {
  const supabase = await loadSupabase();
  const from = (filters.page - 1) * POSTS_PAGE_SIZE;
  const ascending = POST_SORTS[filters.sort].ascending;
  const now = new Date().toISOString();
  let query = supabase.from('admin_posts').select(COLUMNS, { count: 'exact' });
  if (filters.state === 'draft') query = query.eq('status', 'draft');
  if (filters.state === 'scheduled') query = query.eq('status', 'published').gt('publish_at', now);
  if (filters.state === 'published') {
    query = query.eq('status', 'published').or(`publish_at.is.null,publish_at.lte.${now}`);
  }
  const { data, error, count } = await query
    .order('created_at', { ascending })
    .order('id', { ascending })
    .range(from, from + POSTS_PAGE_SIZE - 1);
  if (error) throw error;
  return { rows: (data ?? []).map((row) => parseAdminPost(row)), total: count ?? 0 };
}

export const adminPostsQueryOptions = (filters: PostFilters) =>
  queryOptions({
    queryKey: ['posts', 'admin-list', filters],
    queryFn: () => getAdminPosts(filters),
    placeholderData: keepPreviousData,
  });

export async function getAdminPost(id: string): Promise<AdminPost | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('admin_posts').select(COLUMNS).eq('id', id).maybeSingle();
  if (error) throw error;
  return data ? parseAdminPost(data) : null;
}

export const adminPostQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['posts', 'admin-detail', { id }], queryFn: () => getAdminPost(id) });

/** Saves through the server, which renders the Markdown (functions/v1/admin-post-save). */
export function useSavePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string | null; values: PostValues }) =>
      invokeFunction<Record<string, unknown>>('admin-post-save', {
        ...(id ? { id } : {}),
        title: values.title.trim(),
        content: values.content,
        featured: values.featured,
        status: values.status,
        publish_at: fromLocalInput(values.publishAt),
        media_urls: values.mediaUrls,
      }).then(parseAdminPost),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['posts'] }),
        queryClient.invalidateQueries({ queryKey: ['news'] }),
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
      ]),
  });
}

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('admin_posts').delete().eq('id', id);
      if (error) throw asUserFacing(error);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['posts'] }),
        queryClient.invalidateQueries({ queryKey: ['news'] }),
      ]),
  });
}

/** Exactly the HTML saving would store (functions/v1/admin-post-preview). */
export function previewPost(content: string): Promise<string> {
  return invokeFunction<{ html: string }>('admin-post-preview', { content }).then((answer) => answer.html);
}

/** Post media go to community-review-media under admin-posts/ with a random name. */
export function uploadPostMedia(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return uploadPublicFile(
    'community-review-media',
    `admin-posts/${crypto.randomUUID()}.${fileExtension(file.name)}`,
    file,
    onProgress,
  );
}
