import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type AdminPost, parseAdminPost } from '../../posts.ts';
import { POST_COLUMNS } from './get-admin-posts.ts';

/** One post, or null when there is none with that id. */
export async function getAdminPost(id: string): Promise<AdminPost | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('admin_posts').select(POST_COLUMNS).eq('id', id).maybeSingle();
  if (error) throw error;
  return data ? parseAdminPost(data) : null;
}

export const adminPostQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['posts', 'admin-detail', { id }], queryFn: () => getAdminPost(id) });
