import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import {
  type AdminPost,
  POST_SORTS,
  POSTS_PAGE_SIZE,
  type PostFilters,
  parseAdminPost,
} from '../../posts.ts';

/** The columns of public.admin_posts the admin screens read. */
export const POST_COLUMNS =
  'id, title, content, body_html, featured, status, publish_at, media_urls, created_at, updated_at';

/** One page of the posts in a state (admins read drafts and scheduled posts too). */
export async function getAdminPosts(
  filters: PostFilters,
): Promise<{ rows: AdminPost[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  const from = (filters.page - 1) * POSTS_PAGE_SIZE;
  const ascending = POST_SORTS[filters.sort].ascending;
  const now = new Date().toISOString();
  let query = supabase.from('admin_posts').select(POST_COLUMNS, { count: 'estimated' });
  if (filters.state === 'draft') query = query.eq('status', 'draft');
  if (filters.state === 'scheduled') query = query.eq('status', 'published').gt('publish_at', now);
  if (filters.state === 'published') {
    query = query.eq('status', 'published').or(`publish_at.is.null,publish_at.lte.${now}`);
  }
  const answer = await query
    .order('created_at', { ascending })
    .order('id', { ascending })
    .range(from, from + POSTS_PAGE_SIZE - 1);
  return listPage(answer, parseAdminPost);
}

export const adminPostsQueryOptions = (filters: PostFilters) =>
  queryOptions({
    queryKey: ['posts', 'admin-list', filters],
    queryFn: () => getAdminPosts(filters),
    placeholderData: keepPreviousData,
  });
