// @databases: both — what the sitemap lists is what row-level security lets anon read
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createUser } from '#tests/support/users.ts';

const SITE = 'https://highgrade.example';
// Files of 100 URLs (SITEMAP_URLS_PER_FILE) page 250 products as the default 50,000 pages 125,000, so every
// URL can be opened; the default is the protocol's limit (config.test.ts).
const PER_FILE = 100;
const PRODUCTS = 250;
let server: TestServer;
let votedId: string;
let votedAt: string;

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({
    SITE_URL: SITE,
    SITE_NAME: 'HighGrade',
    SEARCH_INDEXING: 'true',
    SITEMAP_URLS_PER_FILE: String(PER_FILE),
  });
  // 250 live products, plus what must stay out: archived ones and samples.
  // One statement, with every trigger on: the samples' retirement runs once per statement (decision 175).
  await sql(
    `insert into public.products (name, category)
     select 'Bulk Strain ' || n, 'Flower' from generate_series(1, $1::int) as n`,
    [PRODUCTS],
  );
  await sql(
    `insert into public.products (name, category, archived_at) values ('Gone Kush', 'Flower', now())`,
  );
  await sql(`insert into public.products (name, category, is_sample) values ('Sample Haze', 'Flower', true)`);
  // A vote after the product's last edit: its time is the page's last change.
  const [voted] = await sql<{ id: string; at: string }>(
    `update public.product_tallies t set gas = 3, last_vote_at = p.updated_at + interval '90 minutes'
     from public.products p where p.id = t.product_id and p.name = 'Bulk Strain 7'
     returning t.product_id as id, to_char(t.last_vote_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at`,
  );
  votedId = voted?.id ?? '';
  votedAt = voted?.at ?? '';
  await sql(
    `insert into public.brands (name, slug, is_sample) values ('Live Brand', 'live-brand', false),
       ('Old Brand', 'old-brand', false), ('Sample Brand', 'sample-brand', true)`,
  );
  await sql(`update public.brands set archived_at = now() where slug = 'old-brand'`);
  const admin = await createUser(server, { admin: true });
  await sql(
    `insert into public.admin_posts (title, content, author_id, publish_at) values
       ('Live post', 'Hello.', $1, now() - interval '1 day'),
       ('Future post', 'Not yet.', $1, now() + interval '1 day')`,
    [admin.id],
  );
  await sql(
    `insert into public.admin_posts (title, content, author_id, status) values ('Draft', 'Draft.', $1, 'draft')`,
    [admin.id],
  );
}, 180_000);
afterAll(() => server?.close());

const parser = new XMLParser({ isArray: (name) => name === 'sitemap' || name === 'url' });

async function xml(path: string) {
  const response = await fetch(`${server.url}${path}`);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  const text = await response.text();
  expect(XMLValidator.validate(text), path).toBe(true);
  return parser.parse(text);
}

describe('sitemap.xml with 250 products in files of 100 (decision 186)', () => {
  let files: { loc: string; lastmod?: string }[];
  const urls = new Map<string, { loc: string; lastmod?: string }[]>();

  beforeAll(async () => {
    files = (await xml('/sitemap.xml')).sitemapindex.sitemap;
    for (const file of files) {
      const path = file.loc.slice(SITE.length);
      urls.set(path, (await xml(path)).urlset.url ?? []);
    }
  }, 120_000);

  it('is an index of per-area files, products paged at SITEMAP_URLS_PER_FILE URLs', () => {
    expect(files.map((file) => file.loc)).toEqual([
      `${SITE}/sitemaps/pages.xml`,
      `${SITE}/sitemaps/brands-1.xml`,
      `${SITE}/sitemaps/products-1.xml`,
      `${SITE}/sitemaps/products-2.xml`,
      `${SITE}/sitemaps/products-3.xml`,
      `${SITE}/sitemaps/posts-1.xml`,
    ]);
    expect(urls.get('/sitemaps/products-1.xml')).toHaveLength(PER_FILE);
    expect(urls.get('/sitemaps/products-2.xml')).toHaveLength(PER_FILE);
    expect(urls.get('/sitemaps/products-3.xml')).toHaveLength(PRODUCTS - 2 * PER_FILE);
    expect(urls.get('/sitemaps/pages.xml')?.map((url) => url.loc)).toEqual(
      expect.arrayContaining([`${SITE}/`, `${SITE}/news`, `${SITE}/brand-directory`]),
    );
    expect(urls.get('/sitemaps/pages.xml')?.map((url) => url.loc)).not.toContain(`${SITE}/profile`);
  });

  it('lists exactly the public brands, products and posts (set equality in SQL, as anon reads them)', async () => {
    const keys = (prefix: string, ...files: string[]) =>
      files.flatMap((file) =>
        (urls.get(file) ?? []).map((url) => decodeURIComponent(url.loc.slice(prefix.length))),
      );
    const listed = {
      products: keys(
        `${SITE}/pass-or-gas/`,
        '/sitemaps/products-1.xml',
        '/sitemaps/products-2.xml',
        '/sitemaps/products-3.xml',
      ),
      brands: keys(`${SITE}/brand-directory/`, '/sitemaps/brands-1.xml'),
      posts: keys(`${SITE}/news/posts/`, '/sitemaps/posts-1.xml'),
    };
    expect(listed.products).toHaveLength(PRODUCTS);
    expect(new Set(listed.products).size).toBe(PRODUCTS);
    // Public: what a visitor reads — the anon role through row-level security — minus labelled samples.
    const [difference] = await server.db.withScope(
      { role: 'anon', claims: { role: 'anon' } },
      async (tx) =>
        (
          await tx.query<{ products: string; brands: string; posts: string }>(
            `select
             (select count(*) from (select unnest($1::text[]) as key) l
                full join (select id as key from public.product_rankings where not is_sample) p using (key)
                where l.key is null or p.key is null) as products,
             (select count(*) from (select unnest($2::text[]) as key) l
                full join (select slug as key from public.brands
                            where archived_at is null and merged_into is null and not is_sample) b
                using (key) where l.key is null or b.key is null) as brands,
             (select count(*) from (select unnest($3::text[]) as key) l
                full join (select id::text as key from public.admin_posts) a using (key)
                where l.key is null or a.key is null) as posts`,
            [listed.products, listed.brands, listed.posts],
          )
        ).rows,
    );
    expect(difference).toEqual({ products: '0', brands: '0', posts: '0' });
    expect(listed.brands).toEqual(['live-brand']);
    expect(listed.posts).toHaveLength(1);
  });

  it('takes lastmod from the data', async () => {
    const all = [
      ...(urls.get('/sitemaps/products-1.xml') ?? []),
      ...(urls.get('/sitemaps/products-2.xml') ?? []),
      ...(urls.get('/sitemaps/products-3.xml') ?? []),
    ];
    const voted = all.find((url) => url.loc === `${SITE}/pass-or-gas/${votedId}`);
    expect(voted?.lastmod).toBe(votedAt);
    const [row] = await sql<{ lastmod: string }>(
      `select to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as lastmod
       from public.products where name = 'Bulk Strain 8'`,
    );
    const [other] = await sql<{ id: string }>(`select id from public.products where name = 'Bulk Strain 8'`);
    expect(all.find((url) => url.loc === `${SITE}/pass-or-gas/${other?.id}`)?.lastmod).toBe(row?.lastmod);
    // The index gives each file the newest lastmod of its URLs.
    for (const file of files.slice(1)) {
      const newest = (urls.get(file.loc.slice(SITE.length)) ?? [])
        .map((url) => url.lastmod ?? '')
        .sort()
        .at(-1);
      expect(file.lastmod, file.loc).toBe(newest);
    }
  });

  it('every URL of every file answers 200 with the page title and no noindex', async () => {
    const every = [...urls.values()].flat();
    expect(every.length).toBeGreaterThan(PRODUCTS);
    const names = new Map(
      (
        await sql<{ path: string; title: string }>(
          `select '/pass-or-gas/' || id as path, name || ' — Pass or Gas' as title from public.products
           union all select '/brand-directory/' || slug, name || ' — Brand Directory' from public.brands
           union all select '/news/posts/' || id, title || ' — News' from public.admin_posts`,
        )
      ).map((row) => [row.path, row.title]),
    );
    for (const url of every) {
      const path = url.loc.slice(SITE.length);
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-robots-tag'), path).toBeNull();
      const html = await response.text();
      expect(html, path).not.toContain('noindex');
      const title = names.get(decodeURIComponent(path));
      // The static pages' titles are their own; the detail pages' are their rows' names.
      if (title) expect(html, path).toContain(`<title>${title} · HighGrade</title>`);
      else expect(html, path).toMatch(/<title>[^<]+<\/title>/);
    }
  });

  it('a file past the last page, or of no area, is a 404', async () => {
    for (const path of ['/sitemaps/products-4.xml', '/sitemaps/users-1.xml', '/sitemaps/products-0.xml']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });
});

describe('SEARCH_INDEXING=false', () => {
  it('robots.txt shuts every crawler out and every page is noindex', async () => {
    const closed = await startTestServer({ SITE_URL: SITE, SEARCH_INDEXING: 'false' });
    try {
      expect(await (await fetch(`${closed.url}/robots.txt`)).text()).toBe('User-agent: *\nDisallow: /\n');
      const home = await (await fetch(`${closed.url}/`)).text();
      expect(home).toContain('<meta name="robots" content="noindex, nofollow" />');
    } finally {
      await closed.close();
    }
  });
});
