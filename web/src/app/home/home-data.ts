import { queryOptions } from '@tanstack/react-query';
import type { BrandFilters } from '#web/features/brands/api/search-brands.ts';
import { filtersFromSearch, type NewsFilters } from '#web/features/news/news-feed.ts';
import type { ProductFilters } from '#web/features/pass-or-gas/api/get-products.ts';
import { loadDatabase } from '#web/lib/supabase.ts';

/**
 * The home page's data. Each section reads through its area's own query, with the filters of the page
 * its link opens, so both share one cache entry (whichever is opened first, the other shows at once);
 * only the featured posts, which no page lists, have a query of their own.
 */

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

/** The /news page's first view (no search, every category, newest first): the home's latest news are its first entries. */
export const LATEST_NEWS_FILTERS: NewsFilters = filtersFromSearch(new URLSearchParams());

/** Pass or Gas "Top" as /pass-or-gas first shows it (decision 115): the home's leaders are its first five. */
export const TOP_PRODUCTS_FILTERS: ProductFilters = {
  sort: 'top',
  category: null,
  brand: null,
  strain: null,
  q: '',
  pages: 1,
};

/**
 * The brand directory's newest brands with a verified licence (/brand-directory?verified=1&sort=newest,
 * where the section's link goes): the home's are its first four.
 */
export const NEWEST_VERIFIED_BRANDS_FILTERS: BrandFilters = {
  q: '',
  state: null,
  category: null,
  verifiedOnly: true,
  sort: 'newest',
  page: 1,
};

/** How long a home section's data stays fresh before the page reads it again. */
export const HOME_STALE_TIME = 60_000;

/**
 * The team's featured posts: no area's page lists them, so the home page has its own query (invalidated
 * with every post write, by the `posts` prefix).
 */
export const featuredPostsQueryOptions = () =>
  queryOptions({
    queryKey: ['posts', 'home-featured'],
    queryFn: getFeaturedPosts,
    staleTime: HOME_STALE_TIME,
  });
