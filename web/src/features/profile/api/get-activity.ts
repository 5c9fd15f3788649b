import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ProductComment, ProductVote, SavedArticle } from '../profile-data.ts';

export interface Activity {
  votes: ProductVote[];
  comments: ProductComment[];
  saved: SavedArticle[];
}

/** Product §table-calls: the member's votes, comments and saved articles, newest first. */
export async function getActivity(userId: string): Promise<Activity> {
  const supabase = await loadSupabase();
  const [votes, comments, saved] = await Promise.all([
    supabase
      .from('product_votes')
      .select('id, product_id, vote_type, created_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
    supabase
      .from('product_comments')
      .select('id, product_id, content, created_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
    supabase
      .from('saved_articles')
      .select(
        'id, article_title, article_summary, article_image, article_source, article_category, article_url, saved_at',
      )
      .eq('user_id', userId)
      .order('saved_at', { ascending: false }),
  ]);
  if (votes.error) throw votes.error;
  if (comments.error) throw comments.error;
  if (saved.error) throw saved.error;
  return {
    votes: (votes.data ?? []) as ProductVote[],
    comments: (comments.data ?? []) as ProductComment[],
    saved: (saved.data ?? []) as SavedArticle[],
  };
}

export const activityQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['profile', 'activity', { userId }],
    queryFn: userId ? () => getActivity(userId) : skipToken,
  });
