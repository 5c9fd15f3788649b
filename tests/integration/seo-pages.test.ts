// @databases: both — what a head, a feed or robots may name is decided by row-level security as anon
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Validator from '@adobe/structured-data-validator';
import WebAutoExtractor from '@marbec/web-auto-extractor';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShareImages, ShareImagesBusy } from '#server/seo/share-images.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createUser } from '#tests/support/users.ts';

const SITE = 'https://highgrade.example';
let server: TestServer;
let brandId: string;
let productId: string;
let fewVotesId: string;
let sampleId: string;
let postId: string;
let scheduledPostId: string;

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({
    SITE_URL: SITE,
    SITE_NAME: 'High</title>Grade',
    SEARCH_INDEXING: 'true',
  });
  const [brand] = await sql<{ id: string }>(
    `insert into public.brands (name, slug, description, logo_url, website, city, states)
     values ('Acme "Farms" <b>', 'acme-farms', 'Sun-grown since 2015 in <i>Oakland</i>.',
             'https://cdn.example.com/acme.png', 'https://acme.example.com', 'Oakland', '{CA}') returning id`,
  );
  brandId = brand?.id ?? '';
  await sql(
    `insert into public.brand_licences (brand_id, number, state, type, is_primary)
     values ($1, 'C11-0000001-LIC', 'CA', 'Adult-Use Cultivator', true), ($1, '00000042', 'OR', null, false)`,
    [brandId],
  );
  const [product] = await sql<{ id: string }>(
    `insert into public.products (name, brand_id, category, strain_type, description, image_url)
     values ('Thumb Kush', $1, 'Flower', 'hybrid', 'Dense buds & a piney nose.', 'https://cdn.example.com/thumb.png')
     returning id`,
    [brandId],
  );
  productId = product?.id ?? '';
  await sql('update public.product_tallies set gas = 30, pass = 10 where product_id = $1', [productId]);
  const [few] = await sql<{ id: string }>(
    `insert into public.products (name, category) values ('Few Votes OG', 'Edibles') returning id`,
  );
  fewVotesId = few?.id ?? '';
  await sql('update public.product_tallies set gas = 3, pass = 1 where product_id = $1', [fewVotesId]);
  const [sample] = await sql<{ id: string }>(
    `insert into public.products (name, category, is_sample) values ('Sample Haze', 'Flower', true) returning id`,
  );
  sampleId = sample?.id ?? '';
  const admin = await createUser(server, { admin: true });
  const [post] = await sql<{ id: string }>(
    `insert into public.admin_posts (title, content, author_id, media_urls, publish_at)
     values ('Our <first> post', 'Hello **readers** — this is the team.', $1, '{https://cdn.example.com/post.png}',
             '2026-11-01T10:00:00Z') returning id`,
    [admin.id],
  );
  postId = post?.id ?? '';
  const [scheduled] = await sql<{ id: string }>(
    `insert into public.admin_posts (title, content, author_id, publish_at)
     values ('Secret future post', 'Not yet.', $1, now() + interval '2 days') returning id`,
    [admin.id],
  );
  scheduledPostId = scheduled?.id ?? '';
  const [source] = await sql<{ id: string }>(
    `insert into public.news_sources (name, feed_url, category) values ('Gazette', 'https://gazette.example/feed', 'Business')
     returning id`,
  );
  await sql(
    `insert into public.news_articles (id, source_id, story_id, title, url, url_key, summary, source_name, category,
                                       published_at, fingerprint)
     values ('0a2a0000-0000-4000-8000-000000000001', $1, '0a2a0000-0000-4000-8000-000000000001', 'Markets & more',
             'https://gazette.example/markets?a=1&b=2', 'gazette.example/markets', 'A summary <b>bold</b>.',
             'Gazette', 'Business', '2026-11-20T08:30:00Z', 'markets more')`,
    [source?.id],
  );
  const member = await createUser(server, { fullName: 'Pat Grower' });
  await sql(
    `update public.profiles set username = 'pat.grows', bio = 'Grower since 2019 <3.' where user_id = $1`,
    [member.id],
  );
}, 60_000);
afterAll(() => server?.close());

const page = async (path: string, status = 200) => {
  const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
  expect(response.status, path).toBe(status);
  return response.text();
};

function htmlText(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The head as a crawler reads it: the title, named metas, properties, links and JSON-LD blocks. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const titles = [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => htmlText(m[1] ?? ''));
  const meta = (attribute: 'name' | 'property', key: string) => {
    const all = [...head.matchAll(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'g'))];
    return all.length === 1 ? htmlText(all[0]?.[1] ?? '') : all.length === 0 ? undefined : 'DUPLICATE';
  };
  const canonical = /<link rel="canonical" href="([^"]*)"/.exec(head)?.[1];
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) =>
    JSON.parse(m[1] ?? ''),
  ) as Record<string, unknown>[];
  const feeds = [
    ...head.matchAll(/<link rel="alternate" type="([^"]*)" title="([^"]*)" href="([^"]*)"/g),
  ].map((m) => ({ type: m[1], title: htmlText(m[2] ?? ''), href: htmlText(m[3] ?? '') }));
  return {
    titles,
    title: titles[0],
    description: meta('name', 'description'),
    robots: meta('name', 'robots'),
    canonical: canonical && htmlText(canonical),
    og: (key: string) => meta('property', `og:${key}`),
    twitter: (key: string) => meta('name', `twitter:${key}`),
    jsonLd,
    ofType: (type: string) => jsonLd.find((block) => block['@type'] === type),
    feeds,
  };
}

/** What every JSON-LD block must be: schema.org context, a type, absolute URLs. */
function expectSchemaOrg(block: Record<string, unknown> | undefined) {
  expect(block?.['@context']).toBe('https://schema.org');
  expect(typeof block?.['@type']).toBe('string');
}

describe('page heads (decision 183)', () => {
  it('a brand page: title, description, canonical, Open Graph, Organization with licences, breadcrumbs', async () => {
    const html = await page('/brand-directory/acme-farms');
    const head = headOf(html);
    expect(head.titles).toHaveLength(1);
    expect(head.title).toBe('Acme "Farms" <b> — Brand Directory · High</title>Grade');
    expect(head.description).toContain('Acme "Farms" <b> (Oakland, CA): 1 product, 2 licences');
    expect(head.description).toContain('Sun-grown since 2015');
    expect(head.robots).toBeUndefined();
    expect(head.canonical).toBe(`${SITE}/brand-directory/acme-farms`);
    expect(head.og('url')).toBe(`${SITE}/brand-directory/acme-farms`);
    expect(head.og('title')).toBe('Acme "Farms" <b> — Brand Directory');
    expect(head.og('site_name')).toBe('High</title>Grade');
    expect(head.og('image')).toBe(`${SITE}/og/brand/acme-farms.png`);
    expect(head.twitter('card')).toBe('summary_large_image');
    // Escaped: the brand's and the site's markup are text, never elements.
    expect(html).not.toContain('<b> —');
    expect(html).not.toContain('<i>Oakland');
    expect(html).not.toContain('</title>Grade');
    const org = head.ofType('Organization');
    expectSchemaOrg(org);
    expect(org).toMatchObject({
      name: 'Acme "Farms" <b>',
      url: `${SITE}/brand-directory/acme-farms`,
      logo: 'https://cdn.example.com/acme.png',
      sameAs: ['https://acme.example.com'],
      identifier: [
        {
          '@type': 'PropertyValue',
          propertyID: 'CA cannabis licence (Adult-Use Cultivator)',
          value: 'C11-0000001-LIC',
        },
        { '@type': 'PropertyValue', propertyID: 'OR cannabis licence', value: '00000042' },
      ],
    });
    // Inside the JSON-LD block `<` is \u003c: no value can end the element.
    expect(html).toContain('"name":"Acme \\"Farms\\" \\u003cb\\u003e"');
    expect(head.ofType('BreadcrumbList')).toMatchObject({
      itemListElement: [
        { position: 1, name: 'Home', item: `${SITE}/` },
        { position: 2, name: 'Brand Directory', item: `${SITE}/brand-directory` },
        { position: 3, name: 'Acme "Farms" <b>', item: `${SITE}/brand-directory/acme-farms` },
      ],
    });
    // The page's security headers stay as they were.
    const response = await fetch(`${server.url}/brand-directory/acme-farms`);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('a product page: Product with its aggregateRating from 10 counted votes on, none below', async () => {
    const head = headOf(await page(`/pass-or-gas/${productId}`));
    expect(head.title).toBe('Thumb Kush — Pass or Gas · High</title>Grade');
    expect(head.description).toBe(
      'Thumb Kush: Flower by Acme "Farms" <b>. 75% Gas from 40 counted votes on Pass or Gas. Dense buds & a piney nose.',
    );
    expect(head.canonical).toBe(`${SITE}/pass-or-gas/${productId}`);
    expect(head.og('type')).toBe('product');
    expect(head.og('image')).toBe(`${SITE}/og/product/${productId}.png`);
    const product = head.ofType('Product');
    expectSchemaOrg(product);
    expect(product).toMatchObject({
      name: 'Thumb Kush',
      category: 'Flower',
      image: 'https://cdn.example.com/thumb.png',
      brand: { '@type': 'Brand', name: 'Acme "Farms" <b>' },
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: 75,
        bestRating: 100,
        worstRating: 0,
        ratingCount: 40,
      },
    });
    const few = headOf(await page(`/pass-or-gas/${fewVotesId}`));
    expect(few.description).toContain('Only 4 counted votes so far');
    // Unrated, it would not be a valid product snippet: only the breadcrumbs.
    expect(few.ofType('Product')).toBeUndefined();
    expect(few.ofType('BreadcrumbList')).toBeDefined();
    // Samples are labelled on the page and kept out of search results.
    expect(headOf(await page(`/pass-or-gas/${sampleId}`)).robots).toBe('noindex, nofollow');
  });

  it('a team post: NewsArticle with its dates; a scheduled post reads as missing', async () => {
    const head = headOf(await page(`/news/posts/${postId}`));
    expect(head.title).toBe('Our <first> post — News · High</title>Grade');
    expect(head.description).toBe('Hello readers — this is the team.');
    expect(head.og('type')).toBe('article');
    const article = head.ofType('NewsArticle');
    expectSchemaOrg(article);
    expect(article).toMatchObject({
      headline: 'Our <first> post',
      datePublished: '2026-11-01T10:00:00Z',
      image: ['https://cdn.example.com/post.png'],
      publisher: { '@type': 'Organization', name: 'High</title>Grade' },
    });
    const hidden = await page(`/news/posts/${scheduledPostId}`, 404);
    expect(headOf(hidden).title).toBe('Post not found · High</title>Grade');
    expect(headOf(hidden).robots).toBe('noindex, nofollow');
    expect(hidden).not.toContain('Secret future post');
  });

  it('a methodology page names its index; a member page says what the member shows, never indexed', async () => {
    const methodology = headOf(await page('/market-index/cannabis-equity/methodology'));
    expect(methodology.title).toBe('HighGrade Cannabis Equity Index: methodology · High</title>Grade');
    expect(methodology.description).toContain('Equal-weighted index of publicly listed cannabis companies');
    expect(methodology.canonical).toBe(`${SITE}/market-index/cannabis-equity/methodology`);
    expect(methodology.ofType('BreadcrumbList')).toBeDefined();

    const member = headOf(await page('/u/pat.grows'));
    expect(member.title).toBe('Pat Grower (@pat.grows) · High</title>Grade');
    expect(member.description).toBe('Grower since 2019 <3.');
    expect(member.robots).toBe('noindex, nofollow');
    expect(member.og('type')).toBe('profile');
  });

  it('unknown slugs and ids: 404 with the app, the not-found title, noindex, no canonical, no structured data', async () => {
    for (const [path, title] of [
      ['/brand-directory/no-such-brand', 'Brand not found'],
      ['/pass-or-gas/no-such-product', 'Product not found'],
      ['/news/posts/00000000-0000-4000-8000-000000000000', 'Post not found'],
      ['/u/nobody_here', 'Member not found'],
      ['/market-index/no-such-index/methodology', 'Index methodology'],
      ['/no/such/page', 'Page not found'],
    ]) {
      const html = await page(path as string, 404);
      // The body is still the app, which shows its own not-found page.
      expect(html, path).toContain('id="app-config"');
      const head = headOf(html);
      expect(head.title, path).toBe(`${title} · High</title>Grade`);
      expect(head.robots, path).toBe('noindex, nofollow');
      expect(head.canonical, path).toBeUndefined();
      expect(head.jsonLd, path).toEqual([]);
    }
  });

  it('pages behind sign-in or payment are noindex and their previews say nothing of their content', async () => {
    const [report] = await sql<{ id: string }>(
      `insert into public.scammer_reports (reporter_user_id, scammer_name, scammer_description, incident_details)
       select id, 'Shady McScamface', 'A description of the scam', 'Incident details that are long enough'
       from auth.users limit 1 returning id`,
    );
    for (const path of [
      '/scammer-database',
      `/scammer-database/${report?.id}`,
      `/scammer-database/${report?.id}/reply`,
      '/profile?tab=privacy',
      '/admin/reports',
      '/email-confirmed',
    ]) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      // Said in the header too, for crawlers that read only headers (decision 237).
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
      const html = await response.text();
      const head = headOf(html);
      expect(head.robots, path).toBe('noindex, nofollow');
      expect(head.canonical, path).toBeUndefined();
      expect(head.description, path).toBe("Members' area of High</title>Grade.");
      expect(head.jsonLd, path).toEqual([]);
      expect(html, path).not.toContain('Shady');
    }
  });

  it("every page's structured data passes a real validator (schema.org types as Google's rich results require them)", async () => {
    // Adobe's validator, as published; products are not sold here, so a Product is checked as a
    // product snippet (name and an aggregateRating), not as a merchant listing (image, offers).
    const validator = new Validator();
    validator.registeredHandlers.Product = (validator.registeredHandlers.Product ?? []).slice(0, 1);
    const extractor = new WebAutoExtractor({ addLocation: true, embedSource: ['rdfa', 'microdata'] });
    const checked: string[] = [];
    for (const path of [
      '/',
      '/brand-directory/acme-farms',
      `/pass-or-gas/${productId}`,
      `/pass-or-gas/${fewVotesId}`,
      `/news/posts/${postId}`,
      '/market-index/cannabis-equity/methodology',
    ]) {
      const extracted = extractor.parse(await page(path));
      checked.push(...Object.keys(extracted.jsonld).map((type) => `${path} ${type}`));
      const errors = (await validator.validate(extracted)).filter((issue) => issue.severity === 'ERROR');
      expect(
        errors.map((issue) => `${issue.rootType}: ${issue.issueMessage}`),
        path,
      ).toEqual([]);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        '/ WebSite',
        '/brand-directory/acme-farms Organization',
        `/pass-or-gas/${productId} Product`,
        `/news/posts/${postId} NewsArticle`,
        `/news/posts/${postId} BreadcrumbList`,
      ]),
    );
  });

  it('the public pages without parameters, prerendered or not, carry their head; home has WebSite with search', async () => {
    const home = headOf(await page('/'));
    expect(home.title).toBe('High</title>Grade');
    expect(home.canonical).toBe(`${SITE}/`);
    expect(home.robots).toBeUndefined();
    expect(home.ofType('WebSite')).toMatchObject({
      url: `${SITE}/`,
      potentialAction: {
        '@type': 'SearchAction',
        target: { urlTemplate: `${SITE}/news?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    });
    for (const [path, title] of [
      ['/news', 'News'],
      ['/pass-or-gas', 'Pass or Gas'],
      ['/brand-directory', 'Brand Directory'],
      ['/booking', 'Book Your Promo Session'],
      ['/privacy-policy', 'Privacy Policy'],
      ['/how-reports-are-reviewed', 'How reports are reviewed'],
    ]) {
      const head = headOf(await page(path as string));
      expect(head.titles, path).toEqual([`${title} · High</title>Grade`]);
      expect(head.description, path).toMatch(/\w/);
      expect(head.description, path).not.toBe('DUPLICATE');
      expect(head.canonical, path).toBe(`${SITE}${path}`);
      expect(head.og('url'), path).toBe(`${SITE}${path}`);
    }
    // A query string keeps the page's canonical address.
    expect(headOf(await page('/news?q=kush')).canonical).toBe(`${SITE}/news`);
  });

  it('/news names its feeds: all news, team posts, one per category', async () => {
    const feeds = headOf(await page('/news')).feeds;
    expect(feeds.slice(0, 2)).toEqual([
      { type: 'application/atom+xml', title: 'News', href: `${SITE}/feeds/news.xml` },
      { type: 'application/atom+xml', title: 'Team posts', href: `${SITE}/feeds/posts.xml` },
    ]);
    // One per category of the enabled sources, as the page's chips.
    const categories = await sql<{ category: string }>(
      'select distinct category from public.news_sources where enabled order by category',
    );
    expect(categories.map((row) => row.category)).toContain('Business');
    expect(feeds.slice(2)).toEqual(
      categories.map(({ category }) => ({
        type: 'application/atom+xml',
        title: `News: ${category}`,
        href: `${SITE}/feeds/news.xml?category=${encodeURIComponent(category)}`,
      })),
    );
  });
});

describe('share images', () => {
  it('a brand and a product have a 1200×630 PNG, rendered once and cached on disk', async () => {
    for (const path of ['/og/brand/acme-farms.png', `/og/product/${productId}.png`]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await response.arrayBuffer());
      expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
      const again = Buffer.from(await (await fetch(`${server.url}${path}`)).arrayBuffer());
      expect(again.equals(png)).toBe(true);
    }
    const cached = await readdir(join(server.dataDir, 'og'));
    expect(cached.filter((name) => name.endsWith('.png'))).toHaveLength(2);
  });

  it("shows a brand's own uploaded logo top right, and no picture from another host", async () => {
    const [brand] = await sql<{ id: string }>(
      `insert into public.brands (name, slug) values ('Red Logo Co', 'red-logo-co') returning id`,
    );
    const id = brand?.id ?? '';
    const red = await sharp({
      create: { width: 400, height: 400, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    const upload = await fetch(`${server.url}/storage/v1/object/brand-logos/${id}/logo.png`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
        'content-type': 'image/png',
      },
      body: red,
    });
    expect(upload.status).toBe(200);
    const pixel = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      const png = Buffer.from(await response.arrayBuffer());
      // The centre of the picture's square (880 + 120, 60 + 120).
      const { data } = await sharp(png)
        .extract({ left: 1000, top: 180, width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [...data];
    };
    const without = await pixel('/og/brand/red-logo-co.png');
    expect(without).not.toEqual([255, 0, 0]);

    await sql('update public.brands set logo_url = $2 where id = $1', [
      id,
      `${server.url}/storage/v1/object/public/brand-logos/${id}/logo.png`,
    ]);
    expect(await pixel('/og/brand/red-logo-co.png')).toEqual([255, 0, 0]);
    // acme-farms' logo is on another host: never fetched, so no picture.
    expect(await pixel('/og/brand/acme-farms.png')).not.toEqual([255, 0, 0]);
  });

  it('a cached image needs no place in the line of renders; a full line refuses new ones (503)', async () => {
    // A second instance on the same cache whose line takes nobody: what it can answer needs no render.
    const full = createShareImages({
      db: server.db,
      dataDir: server.dataDir,
      siteName: 'High</title>Grade',
      queueLimit: 0,
    });
    await sql(`insert into public.brands (name, slug) values ('Queue Test Co', 'queue-test-co')`);
    await expect(full.brand('queue-test-co')).rejects.toBeInstanceOf(ShareImagesBusy);
    const drawn = await fetch(`${server.url}/og/brand/queue-test-co.png`);
    expect(drawn.status).toBe(200);
    const png = Buffer.from(await drawn.arrayBuffer());
    expect((await full.brand('queue-test-co'))?.equals(png)).toBe(true);
    // Over HTTP a burst of new images is answered 200 or 503 with Retry-After, never an error.
    await sql(
      `insert into public.brands (name, slug) select 'Burst ' || n, 'burst-' || n from generate_series(1, 40) n`,
    );
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => fetch(`${server.url}/og/brand/burst-${n + 1}.png`)),
    );
    for (const answer of answers) {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) expect(answer.headers.get('retry-after')).toBe('5');
      await answer.arrayBuffer();
    }
  });

  it('what a visitor cannot open has no image', async () => {
    for (const path of [
      '/og/brand/no-such-brand.png',
      `/og/product/${scheduledPostId}.png`,
      '/og/brand/acme-farms.jpg',
      '/og/user/acme-farms.png',
    ]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
    await sql(`update public.products set archived_at = now() where name = 'Few Votes OG'`);
    expect((await fetch(`${server.url}/og/product/${fewVotesId}.png`)).status).toBe(404);
  });
});

describe('robots.txt (decision 186)', () => {
  it('lets crawlers into every page but not the APIs, and names the sitemap', async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('User-agent: *');
    for (const path of ['/rest/v1/', '/auth/v1/', '/storage/v1/', '/realtime/v1/', '/functions/v1/']) {
      expect(text).toContain(`Disallow: ${path}\n`);
    }
    // Private pages are fetched to read their noindex: disallowed, their addresses could still be listed
    // from links elsewhere, bare (decision 237).
    for (const path of ['/profile', '/admin', '/scammer-database']) {
      expect(text).not.toContain(`Disallow: ${path}`);
    }
    expect(text).not.toMatch(/^Disallow: \/$/m);
    expect(text).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

describe('feeds out (decision 187)', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === 'entry' || name === 'link',
  });
  const feed = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    return parser.parse(xml).feed as { title: string; entry?: Record<string, unknown>[] };
  };

  it('team posts: published ones only, linking to their page, with their dates', async () => {
    const posts = await feed('/feeds/posts.xml');
    expect(posts.title).toBe('High</title>Grade: team posts');
    expect(posts.entry).toHaveLength(1);
    expect(posts.entry?.[0]).toMatchObject({
      id: `${SITE}/news/posts/${postId}`,
      title: 'Our <first> post',
      published: '2026-11-01T10:00:00Z',
      link: [{ '@_href': `${SITE}/news/posts/${postId}` }],
    });
  });

  it('the news feed by category: the articles with their own source links and dates', async () => {
    const business = await feed('/feeds/news.xml?category=Business');
    expect(business.entry).toHaveLength(1);
    expect(business.entry?.[0]).toMatchObject({
      title: 'Markets & more',
      link: [{ '@_href': 'https://gazette.example/markets?a=1&b=2' }],
      published: '2026-11-20T08:30:00Z',
      author: { name: 'Gazette' },
      summary: { '#text': 'A summary <b>bold</b>.' },
    });
    expect((await feed('/feeds/news.xml?category=Nothing')).entry).toBeUndefined();
    const all = await feed('/feeds/news.xml');
    expect(all.entry?.map((entry) => entry.title)).toContain('Markets & more');
    const tooLong = await fetch(`${server.url}/feeds/news.xml?category=${'x'.repeat(41)}`);
    expect(tooLong.status).toBe(400);
  });
});
