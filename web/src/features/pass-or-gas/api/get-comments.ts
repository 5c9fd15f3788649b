import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { CommentAuthor, ProductComment } from '../types.ts';

export type CommentSort = 'newest' | 'top';
const COMMENT_COLUMNS = 'id, user_id, product_id, content, created_at, edited_at, hidden_at, likes';

export interface CommentThread {
  comments: ProductComment[];
  /** Ids of the comments the member liked. */
  liked: string[];
  /**
   * Authors by user id, for those with a public profile who show their activity; everyone else is
   * "A member" (decision 146).
   */
  authors: Record<string, CommentAuthor>;
}

async function authorsOf(comments: ProductComment[]): Promise<Record<string, CommentAuthor>> {
  const ids = [...new Set(comments.map((comment) => comment.user_id))];
  if (ids.length === 0) return {};
  const db = await loadDatabase();
  const { data, error } = await db.rpc('member_names', { p_user_ids: ids });
  if (error) throw error;
  const rows = (data ?? []) as Array<CommentAuthor & { user_id: string }>;
  return Object.fromEntries(
    rows.map((row) => [row.user_id, { username: row.username, display_name: row.display_name }]),
  );
}

/** product §pass-or-gas: a product's comments, newest or most liked first (hidden ones only to their author). */
export async function getComments(
  productId: string,
  sort: CommentSort,
  userId: string | null,
): Promise<CommentThread> {
  const db = await loadDatabase();
  let query = db.from('product_comments').select(COMMENT_COLUMNS).eq('product_id', productId);
  if (sort === 'top') query = query.order('likes', { ascending: false });
  const { data, error } = await query.order('created_at', { ascending: false }).order('id').limit(100);
  if (error) throw error;
  const comments = (data ?? []) as ProductComment[];
  const likedOf = async (): Promise<string[]> => {
    if (!userId || comments.length === 0) return [];
    const likes = await db
      .from('product_comment_likes')
      .select('comment_id')
      .eq('user_id', userId)
      .in(
        'comment_id',
        comments.map((comment) => comment.id),
      );
    if (likes.error) throw likes.error;
    return (likes.data ?? []).map((row) => row.comment_id as string);
  };
  const [liked, authors] = await Promise.all([likedOf(), authorsOf(comments)]);
  return { comments, liked, authors };
}

export const commentsQueryOptions = (productId: string, sort: CommentSort, userId: string | null) =>
  queryOptions({
    queryKey: ['pass-or-gas', 'comments', { productId, sort, userId }],
    queryFn: () => getComments(productId, sort, userId),
  });
