import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface ModerationItem {
  id: string;
  kind: 'comment_report' | 'held_votes';
  product_id: string;
  comment_id: string | null;
  reports: number;
  votes: number;
  status: 'open' | 'resolved';
  resolution: string | null;
  created_at: string;
  updated_at: string;
  product: { name: string } | null;
  comment: { content: string; user_id: string } | null;
  /** Who wrote the reported comment: admins read every profile (issue 34). */
  author: { full_name: string | null; username: string | null } | null;
}

/** /admin/moderation: the open or handled items, most recently changed first, with each comment's author. */
export async function getModerationItems(status: 'open' | 'resolved'): Promise<ModerationItem[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('moderation_items')
    .select(
      'id, kind, product_id, comment_id, reports, votes, status, resolution, created_at, updated_at, product:products(name), comment:product_comments(content, user_id)',
    )
    .eq('status', status)
    .order('updated_at', { ascending: false })
    .limit(100);
  if (error) throw error;
  const items = (data ?? []) as unknown as Omit<ModerationItem, 'author'>[];
  const authorIds = [...new Set(items.flatMap((item) => (item.comment ? [item.comment.user_id] : [])))];
  const authors = new Map<string, ModerationItem['author']>();
  if (authorIds.length > 0) {
    const { data: profiles, error: profilesError } = await supabase
      .from('profiles')
      .select('user_id, full_name, username')
      .in('user_id', authorIds);
    if (profilesError) throw profilesError;
    for (const profile of (profiles ?? []) as {
      user_id: string;
      full_name: string | null;
      username: string | null;
    }[]) {
      authors.set(profile.user_id, { full_name: profile.full_name, username: profile.username });
    }
  }
  return items.map((item) => ({
    ...item,
    author: item.comment ? (authors.get(item.comment.user_id) ?? null) : null,
  }));
}

export const moderationQueryOptions = (status: 'open' | 'resolved') =>
  queryOptions({
    queryKey: ['pass-or-gas', 'moderation', { status }],
    queryFn: () => getModerationItems(status),
  });
