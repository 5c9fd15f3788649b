import { queryOptions } from '@tanstack/react-query';
import type { BrandListItem } from '#web/features/brands/types.ts';
import type { NewsEntry } from '#web/features/news/news-feed.ts';
import type { RankedProduct } from '#web/features/pass-or-gas/types.ts';
import { loadDatabase } from '#web/lib/supabase.ts';

/** How many items each home section shows (design §3 Home, issue 21). */
export const HOME_COUNTS = { featured: 3, news: 6, leaders: 5, brands: 4 } as const;

export interface FeaturedPost {
  id: string;
  title: string;
  content: string;
  publishedAt: string;
}

/** The team's featured posts that readers can see now (published, publish time reached), newest first. */
export async function getFeaturedPosts(): Promise<FeaturedPost[]> {
  const db = await loadDatabase();
  const now = new Date().toISOString();
  const { data, error } = await db
    .from('admin_posts')
    .select('id, title, content, publish_at, created_at')
    .eq('status', 'published')
    .eq('featured', true)
    .or(`publish_at.is.null,publish_at.lte.${now}`)
    .order('created_at', { ascending: false })
    .limit(HOME_COUNTS.featured);
  if (error) throw error;
  return (data ?? []).map((row) => ({
    id: row.id as string,
    title: row.title as string,
    content: row.content as string,
    publishedAt: (row.publish_at ?? row.created_at) as string,
  }));
}

/** The latest entries of the news feed (rpc news_feed, the /news page's own query). */
export async function getLatestNews(): Promise<NewsEntry[]> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('news_feed', {
    p_query: null,
    p_category: null,
    p_sort: 'newest',
    p_limit: HOME_COUNTS.news,
  });
  if (error) throw error;
  return ((data ?? []) as NewsEntry[]).slice(0, HOME_COUNTS.news);
}

export type Leader = Pick<
  RankedProduct,
  'id' | 'name' | 'brand_name' | 'category' | 'is_sample' | 'gas' | 'pass' | 'counted' | 'gas_share'
>;

/**
 * Pass or Gas "Top" (Wilson lower bound of the Gas share over every counted vote, decision 115), first
 * five: all-time, not today's votes, and the home section says so (decision 208).
 */
export async function getLeaders(): Promise<Leader[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('product_rankings')
    .select('id, name, brand_name, category, is_sample, gas, pass, counted, gas_share')
    .order('wilson', { ascending: false })
    .order('counted', { ascending: false })
    .order('id')
    .limit(HOME_COUNTS.leaders);
  if (error) throw error;
  return (data ?? []) as Leader[];
}

/** The most recently added brands with a verified licence (rpc search_brands, the directory's query). */
export async function getNewestVerifiedBrands(): Promise<BrandListItem[]> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('search_brands', {
    q: null,
    state: null,
    category: null,
    verified_only: true,
    sort: 'newest',
    page_size: HOME_COUNTS.brands,
    page_offset: 0,
  });
  if (error) throw error;
  return (data ?? []) as BrandListItem[];
}

export const featuredPostsQueryOptions = () =>
  queryOptions({ queryKey: ['posts', 'home-featured'], queryFn: getFeaturedPosts, staleTime: 60_000 });
export const latestNewsQueryOptions = () =>
  queryOptions({ queryKey: ['news', 'home-latest'], queryFn: getLatestNews, staleTime: 60_000 });
export const leadersQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'home-leaders'], queryFn: getLeaders, staleTime: 60_000 });
export const newestBrandsQueryOptions = () =>
  queryOptions({ queryKey: ['brands', 'home-newest'], queryFn: getNewestVerifiedBrands, staleTime: 60_000 });
