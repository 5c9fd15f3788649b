/**
 * Search and sharing (issue 39, decisions 183–187): robots.txt, the sitemap index and its files, and
 * the Atom feeds, at the site's root; the brands' and products' share images under /og/. The pages' heads are built by the web app's plugin
 * (http/spa.ts) with pages.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import type { SitemapArea } from './db.ts';
import { createFeeds } from './feeds.ts';
import type { SiteInfo } from './head.ts';
import { createShareImages, ShareImagesBusy } from './share-images.ts';
import { AREAS, createSitemaps, robotsTxt } from './sitemap.ts';

/** Sitemaps and feeds are read again at most this often by a cache in front (seconds). */
const MAX_AGE = 600;

const XML = 'application/xml; charset=utf-8';
const ATOM = 'application/atom+xml; charset=utf-8';

/**
 * Keeps generated sitemap and feed documents for MAX_AGE seconds (at most MEMO_ENTRIES of them), and
 * lets concurrent requests for one share its single build: a file of 50,000 URLs is a few MB and one
 * large query, which a crawler (or anyone) asking repeatedly must not repeat each time.
 */
const MEMO_ENTRIES = 16;
function memoised() {
  const entries = new Map<string, { until: number; value: Promise<string | null> }>();
  return (key: string, build: () => Promise<string | null>): Promise<string | null> => {
    const now = Date.now();
    const entry = entries.get(key);
    if (entry && entry.until > now) return entry.value;
    const value = build();
    value.catch(() => entries.delete(key));
    entries.delete(key);
    entries.set(key, { until: now + MAX_AGE * 1000, value });
    for (const old of entries.keys()) {
      if (entries.size <= MEMO_ENTRIES) break;
      entries.delete(old);
    }
    return value;
  };
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .type('application/json; charset=utf-8')
    .send({ error: 'not_found', message: 'Not found' });
}

export default async function seoPlugin(
  app: FastifyInstance,
  options: { ctx: AppContext; site: SiteInfo },
): Promise<void> {
  const { ctx, site } = options;
  const sitemaps = createSitemaps({ db: ctx.db, site, pageSize: ctx.config.sitemapUrlsPerFile });
  const feeds = createFeeds({ db: ctx.db, site });
  const images = createShareImages({
    db: ctx.db,
    dataDir: ctx.config.dataDir,
    siteName: site.siteName,
    // Through the storage service as a visitor's download (public buckets only, its own checks).
    readPublicObject: async (path) => {
      const response = await app.inject({ method: 'GET', url: `/storage/v1/object/public/${path}` });
      return response.statusCode === 200 ? response.rawPayload : null;
    },
  });
  const memo = memoised();
  const cached = (reply: FastifyReply, type: string) =>
    reply.type(type).header('cache-control', `public, max-age=${MAX_AGE}`);

  app.get('/robots.txt', (_request, reply) =>
    cached(reply, 'text/plain; charset=utf-8').send(robotsTxt(site, ctx.config.searchIndexing)),
  );
  app.get('/sitemap.xml', async (_request, reply) =>
    cached(reply, XML).send(await memo('sitemap.xml', sitemaps.index)),
  );
  app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
    const { file } = request.params;
    if (file === 'pages.xml') return cached(reply, XML).send(await memo(file, sitemaps.pages));
    const match = /^([a-z]+)-([1-9][0-9]{0,4})\.xml$/.exec(file);
    const area = match?.[1] as SitemapArea | undefined;
    if (!match || !area || !AREAS.includes(area)) return notFound(reply);
    const xml = await memo(file, () => sitemaps.areaFile(area, Number(match[2])));
    return xml === null ? notFound(reply) : cached(reply, XML).send(xml);
  });
  app.get('/feeds/posts.xml', async (_request, reply) =>
    cached(reply, ATOM).send(await memo('feeds/posts.xml', feeds.posts)),
  );
  app.get<{ Querystring: { category?: string } }>('/feeds/news.xml', async (request, reply) => {
    const category = typeof request.query.category === 'string' ? request.query.category.trim() : '';
    if (category.length > 40) {
      return reply
        .status(400)
        .type('application/json; charset=utf-8')
        .send({ error: 'bad_request', message: 'category is too long (at most 40 characters)' });
    }
    return cached(reply, ATOM).send(
      await memo(`feeds/news.xml?${category}`, () => feeds.news(category || null)),
    );
  });

  app.get<{ Params: { kind: string; file: string } }>('/og/:kind/:file', async (request, reply) => {
    const { kind, file } = request.params;
    const key = file.endsWith('.png') ? file.slice(0, -'.png'.length) : null;
    let png: Buffer | null;
    try {
      png =
        key === null
          ? null
          : kind === 'brand'
            ? await images.brand(key)
            : kind === 'product'
              ? await images.product(key)
              : null;
    } catch (error) {
      if (!(error instanceof ShareImagesBusy)) throw error;
      // A burst of new links: the line of renders is full; a crawler comes back.
      return reply
        .status(503)
        .header('retry-after', '5')
        .type('text/plain; charset=utf-8')
        .send('Too many share images are being drawn; try again shortly.');
    }
    if (!png) return notFound(reply);
    return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png);
  });
}
