/**
 * Every SQL statement of the search and sharing module (decisions 183–187). Each runs inside a
 * transaction scoped to `anon` (pages.ts, sitemap.ts, feeds.ts), so row-level security decides what a
 * head, a sitemap or a feed can name: exactly what a visitor could read.
 */
import type { Queryable } from '../db/driver.ts';

export interface BrandHeadRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  logo_url: string | null;
  website: string | null;
  social_links: string[];
  city: string | null;
  states: string[];
  archived: boolean;
  is_sample: boolean;
  merged_into_slug: string | null;
  licences: { number: string; state: string; type: string | null }[];
  products: number | null;
  gas: number | null;
  pass: number | null;
}

/** One brand by slug, with its licences and tallies: one statement. */
export async function brandHead(tx: Queryable, slug: string): Promise<BrandHeadRow | null> {
  const { rows } = await tx.query<BrandHeadRow>(
    `select b.id, b.name, b.slug, b.description, b.logo_url, b.website, b.social_links, b.city, b.states,
            b.archived_at is not null as archived, b.is_sample,
            (select m.slug from public.brands m where m.id = b.merged_into) as merged_into_slug,
            coalesce((select jsonb_agg(jsonb_build_object('number', l.number, 'state', l.state, 'type', l.type)
                        order by l.is_primary desc, l.state, l.number)
                      from public.brand_licences l where l.brand_id = b.id), '[]'::jsonb) as licences,
            t.products, t.gas, t.pass
     from public.brands b left join public.brand_tallies t on t.brand_id = b.id
     where b.slug = $1`,
    [slug],
  );
  return rows[0] ?? null;
}

export interface ProductHeadRow {
  id: string;
  name: string;
  brand_name: string | null;
  brand_slug: string | null;
  category: string;
  strain_type: string;
  image_url: string | null;
  description: string | null;
  is_sample: boolean;
  gas: number;
  pass: number;
  counted: number;
}

/** One live product with its tallies, from the view the product page reads. */
export async function productHead(tx: Queryable, id: string): Promise<ProductHeadRow | null> {
  const { rows } = await tx.query<ProductHeadRow>(
    `select id, name, brand_name, brand_slug, category, strain_type, image_url, description, is_sample,
            gas, pass, counted
     from public.product_rankings where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface PostHeadRow {
  id: string;
  title: string;
  content: string;
  media_urls: string[];
  published_at: string;
  updated_at: string;
}

/** One published team post whose time has come (the admin_posts policy decides for anon). */
export async function postHead(tx: Queryable, id: string): Promise<PostHeadRow | null> {
  const { rows } = await tx.query<PostHeadRow>(
    `select id, title, content, media_urls,
            to_char(coalesce(publish_at, created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as published_at,
            to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at
     from public.admin_posts where id = $1::uuid and status = 'published'`,
    [id],
  );
  return rows[0] ?? null;
}

/** A member's profile as a visitor sees it (rpc member_profile, decision 146). */
export async function memberProfile(
  tx: Queryable,
  username: string,
): Promise<Record<string, unknown> | null> {
  const { rows } = await tx.query<{ profile: Record<string, unknown> | null }>(
    'select public.member_profile($1) as profile',
    [username],
  );
  return rows[0]?.profile ?? null;
}

/** One market index's name and description. */
export async function indexHead(
  tx: Queryable,
  slug: string,
): Promise<{ slug: string; name: string; description: string | null } | null> {
  const { rows } = await tx.query<{ slug: string; name: string; description: string | null }>(
    'select slug, name, description from public.market_indices where slug = $1',
    [slug],
  );
  return rows[0] ?? null;
}

/** The public detail pages of an area, for the sitemap: what is listed, and when it last changed. */
export type SitemapArea = 'brands' | 'products' | 'posts';

/**
 * What the sitemap lists of each area (decision 186): live brands and products (not archived, not
 * merged) that are not samples, published team posts. Each row's key and last change.
 */
const AREA_SQL: Record<SitemapArea, { from: string; key: string; lastmod: string }> = {
  brands: {
    from: 'public.brands b left join public.brand_tallies t on t.brand_id = b.id where b.archived_at is null and b.merged_into is null and not b.is_sample',
    key: 'b.slug',
    lastmod: 'greatest(b.updated_at, t.updated_at)',
  },
  products: {
    from: 'public.products p left join public.product_tallies t on t.product_id = p.id where p.archived_at is null and not p.is_sample',
    key: 'p.id',
    lastmod: 'greatest(p.updated_at, t.last_vote_at)',
  },
  posts: {
    from: "public.admin_posts a where a.status = 'published'",
    key: 'a.id::text',
    lastmod: 'greatest(a.updated_at, coalesce(a.publish_at, a.created_at))',
  },
};

/** How many pages an area has, and the last change in each (one statement). */
export async function sitemapPages(
  tx: Queryable,
  area: SitemapArea,
  perPage: number,
): Promise<{ page: number; lastmod: string | null }[]> {
  const sql = AREA_SQL[area];
  const { rows } = await tx.query<{ page: number; lastmod: string | null }>(
    `select (n / $1)::int as page,
            to_char(max(lastmod) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as lastmod
     from (select ${sql.lastmod} as lastmod, row_number() over (order by ${sql.key}) - 1 as n
           from ${sql.from}) x
     group by 1 order by 1`,
    [perPage],
  );
  return rows;
}

/** One page of an area: keys in order, with their last change. */
export async function sitemapUrls(
  tx: Queryable,
  area: SitemapArea,
  page: number,
  perPage: number,
): Promise<{ key: string; lastmod: string | null }[]> {
  const sql = AREA_SQL[area];
  const { rows } = await tx.query<{ key: string; lastmod: string | null }>(
    `select ${sql.key} as key,
            to_char(${sql.lastmod} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as lastmod
     from ${sql.from}
     order by ${sql.key}
     limit $1 offset $2`,
    [perPage, page * perPage],
  );
  return rows;
}

export interface FeedPostRow {
  id: string;
  title: string;
  content: string;
  body_html: string | null;
  published_at: string;
  updated_at: string;
}

/** The newest published team posts for the feed. */
export async function feedPosts(tx: Queryable, limit: number): Promise<FeedPostRow[]> {
  const { rows } = await tx.query<FeedPostRow>(
    `select id, title, content, body_html,
            to_char(coalesce(publish_at, created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as published_at,
            to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at
     from public.admin_posts where status = 'published'
     order by coalesce(publish_at, created_at) desc, id desc limit $1`,
    [limit],
  );
  return rows;
}

export interface FeedItemRow {
  kind: 'article' | 'post';
  id: string;
  title: string;
  url: string | null;
  summary: string | null;
  source_name: string | null;
  category: string | null;
  published_at: string;
}

/** The news feed (rpc news_feed, as the news page reads it), all categories or one. */
export async function feedItems(
  tx: Queryable,
  category: string | null,
  limit: number,
): Promise<FeedItemRow[]> {
  const { rows } = await tx.query<FeedItemRow>(
    `select kind, id, title, url, summary, source_name, category,
            to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as published_at
     from public.news_feed(p_category => $1, p_limit => $2)`,
    [category, limit],
  );
  return rows;
}

/** The categories of the enabled sources (what the news page offers as chips). */
export async function feedCategories(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ category: string }>(
    'select distinct category from public.news_sources where enabled order by category',
  );
  return rows.map((row) => row.category);
}

/** The market indices' slugs, for their methodology pages in the sitemap. */
export async function indexSlugs(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ slug: string }>('select slug from public.market_indices order by slug');
  return rows.map((row) => row.slug);
}
