/**
 * robots.txt and sitemap.xml (decision 186). The sitemap is an index of per-area files: the public
 * pages without parameters and the market indices' methodology pages (`pages.xml`), then live brands,
 * live non-sample products and published team posts, SITEMAP_PAGE_SIZE URLs per file
 * (`brands-1.xml`, `products-2.xml`, ...), each with `lastmod` from the data. Everything is read as
 * `anon`, so the sitemap names only what a visitor can open.
 */
import type { Database, Queryable } from '../db/driver.ts';
import * as sql from './db.ts';
import type { SiteInfo } from './head.ts';
import { STATIC_PAGES } from './pages.ts';
import { escapeXml } from './xml.ts';

/** The sitemap protocol's limit: 50,000 URLs per file. */
export const SITEMAP_PAGE_SIZE = 50_000;

export const AREAS: readonly sql.SitemapArea[] = ['brands', 'products', 'posts'];

/** The path of an area's detail page for a key. */
export function areaPath(area: sql.SitemapArea, key: string): string {
  if (area === 'brands') return `/brand-directory/${key}`;
  if (area === 'products') return `/pass-or-gas/${encodeURIComponent(key)}`;
  return `/news/posts/${key}`;
}

/**
 * The API prefixes robots.txt keeps crawlers out of. Pages are never disallowed, private ones included:
 * a crawler kept out of a page cannot read its `noindex` and may still list its address from links
 * elsewhere; fetched, a private page's head and X-Robots-Tag say noindex and tell nothing of its content
 * (decision 237).
 */
const API_PREFIXES = ['/auth/v1/', '/rest/v1/', '/storage/v1/', '/realtime/v1/', '/functions/v1/'];

export function robotsTxt(site: SiteInfo, indexing: boolean): string {
  if (!indexing) return 'User-agent: *\nDisallow: /\n';
  return [
    'User-agent: *',
    ...API_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    'Allow: /',
    '',
    `Sitemap: ${site.siteUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function urlset(urls: { loc: string; lastmod?: string | null }[]): string {
  const body = urls
    .map(
      (url) =>
        `<url><loc>${escapeXml(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`,
    )
    .join('\n');
  return `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function createSitemaps(deps: { db: Database; site: SiteInfo; pageSize?: number }) {
  const perPage = deps.pageSize ?? SITEMAP_PAGE_SIZE;
  const anon = <T>(fn: (tx: Queryable) => Promise<T>) =>
    deps.db.withScope({ role: 'anon', claims: { role: 'anon' }, readOnly: true }, fn);
  const url = (path: string) => `${deps.site.siteUrl}${path}`;

  /** The index: pages.xml, then each area's files (an area without rows has none). */
  async function index(): Promise<string> {
    const files = await anon(async (tx) => {
      const out: { loc: string; lastmod: string | null }[] = [
        { loc: url('/sitemaps/pages.xml'), lastmod: null },
      ];
      for (const area of AREAS) {
        for (const page of await sql.sitemapPages(tx, area, perPage)) {
          out.push({ loc: url(`/sitemaps/${area}-${page.page + 1}.xml`), lastmod: page.lastmod });
        }
      }
      return out;
    });
    const body = files
      .map(
        (file) =>
          `<sitemap><loc>${escapeXml(file.loc)}</loc>${file.lastmod ? `<lastmod>${file.lastmod}</lastmod>` : ''}</sitemap>`,
      )
      .join('\n');
    return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
  }

  async function pages(): Promise<string> {
    const slugs = await anon((tx) => sql.indexSlugs(tx));
    return urlset([
      ...Object.keys(STATIC_PAGES).map((path) => ({ loc: url(path) })),
      ...slugs.map((slug) => ({ loc: url(`/market-index/${encodeURIComponent(slug)}/methodology`) })),
    ]);
  }

  /** One file of an area (1-based page), or null when the area has no such page. */
  async function areaFile(area: sql.SitemapArea, page: number): Promise<string | null> {
    if (page < 1 || page > 10_000) return null;
    const rows = await anon((tx) => sql.sitemapUrls(tx, area, page - 1, perPage));
    if (rows.length === 0 && page > 1) return null;
    return urlset(rows.map((row) => ({ loc: url(areaPath(area, row.key)), lastmod: row.lastmod })));
  }

  return { index, pages, areaFile };
}
