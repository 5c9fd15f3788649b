import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ProductComment, ProductVote, SavedArticle } from '../profile-data.ts';

export interface Activity {
  votes: ProductVote[];
  comments: ProductComment[];
  saved: SavedArticle[];
}

/**
 * Product §table-calls: the member's votes, comments and saved articles, newest first. Votes and
 * comments carry their product's name (the embedded `products` row; null when the product was
 * archived, which members cannot read), as the public profile shows them (issue 34 item 6).
 */
export async function getActivity(userId: string): Promise<Activity> {
  const supabase = await loadSupabase();
  const [votes, comments, saved] = await Promise.all([
    supabase
      .from('product_votes')
      .select('id, product_id, vote_type, created_at, product:products(name)')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
    supabase
      .from('product_comments')
      .select('id, product_id, content, created_at, product:products(name)')
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
    // `product` is a to-one embed (product_id → products.id): an object or null, not the array the
    // untyped client assumes.
    votes: (votes.data ?? []) as unknown as ProductVote[],
    comments: (comments.data ?? []) as unknown as ProductComment[],
    saved: (saved.data ?? []) as SavedArticle[],
  };
}

export const activityQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['profile', 'activity', { userId }],
    queryFn: userId ? () => getActivity(userId) : skipToken,
  });
