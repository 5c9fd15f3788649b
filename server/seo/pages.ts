/**
 * What each page says about itself (decision 183): for the public pages without parameters a fixed
 * title and description; for a detail page (brand, product, team post, member, index methodology) one
 * small query as `anon` — the same tables, views and RPCs the page reads through row-level security, so
 * a head can never name what a visitor could not read; for pages behind sign-in or payment a generic
 * head marked `noindex`. Detail heads are kept briefly per process (HEAD_CACHE_MS).
 */
import type { Database } from '../db/driver.ts';
import { isAppRoute } from '../http/app-routes.ts';
import * as sql from './db.ts';
import { markdownText, type PageHead, type SiteInfo } from './head.ts';
import { breadcrumbs, MIN_RATED_VOTES, newsArticle, organization, product, webSite } from './json-ld.ts';

/** How long a detail page's head is reused before it is read again. */
export const HEAD_CACHE_MS = 30_000;
/** Most detail heads kept per process. */
export const HEAD_CACHE_ENTRIES = 2000;

export interface PageHeadsDeps {
  db: Database;
  site: SiteInfo;
  /** SEARCH_INDEXING: false marks every page noindex. */
  indexing: boolean;
}

interface StaticPage {
  title?: string;
  description: string;
  feeds?: boolean;
}

const site = (text: string, name: string) => text.replaceAll('{site}', name);

/** The public pages without parameters. Titles as the pages set them (documentTitle). */
export const STATIC_PAGES: Record<string, StaticPage> = {
  '/': {
    description:
      '{site} — news, market index, Pass or Gas product voting, brand directory and the Scammer Network for the legal cannabis industry (21+).',
  },
  '/news': {
    title: 'News',
    description:
      'Cannabis industry news from trusted sources and the {site} team, by category, newest first, with search.',
    feeds: true,
  },
  '/market-index': {
    title: 'Market Index',
    description:
      'The {site} Market Index: cannabis stocks and flower prices as indices, with their history and published methodology.',
  },
  '/pass-or-gas': {
    title: 'Pass or Gas',
    description:
      'Pass or Gas: the community votes on cannabis products. Top and Trending rankings with the numbers behind them.',
  },
  '/pass-or-gas/how-rankings-work': {
    title: 'How rankings work — Pass or Gas',
    description:
      'How Pass or Gas ranks products: the Wilson lower bound for Top, a 48-hour half-life for Trending, and what counts as a vote.',
  },
  '/brand-directory': {
    title: 'Brand Directory',
    description:
      'Cannabis brands with their state licences, verification status, products and community score on {site}.',
  },
  '/booking': {
    title: 'Book Your Promo Session',
    description:
      'Book a promo session with the {site} team: choose a day and a time slot and tell us about your product.',
  },
  '/auth': {
    title: 'Sign In',
    description: 'Sign in to {site} or create an account to vote, comment and reach the Scammer Network.',
  },
  '/privacy-policy': {
    title: 'Privacy Policy',
    description: 'How {site} collects, uses and protects personal data.',
  },
  '/terms-of-service': { title: 'Terms of Service', description: 'The terms for using {site}.' },
  '/cookie-policy': { title: 'Cookie Policy', description: 'The cookies {site} sets, and why.' },
  '/personal-data': {
    title: 'Personal data register',
    description: 'Every kind of personal data {site} holds: where it is kept, why, and for how long.',
  },
  '/how-reports-are-reviewed': {
    title: 'How reports are reviewed',
    description:
      'How {site} reviews Scammer Network reports: what the reviewers check and what they do not, how the people named reply, and how corrections and takedowns work.',
  },
};

/** Pages behind sign-in or payment: noindex, and a head that tells nothing of their content. */
const PRIVATE_PAGES: [prefix: string, title: string][] = [
  ['/scammer-database', 'Scammer Network'],
  ['/profile', 'Profile'],
  ['/admin', 'Admin Dashboard'],
  ['/email-confirmed', 'Email confirmed'],
];

function privatePage(path: string): string | undefined {
  return PRIVATE_PAGES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1];
}

/** The feeds the news page offers: all news, the team's posts, and one per category. */
export function newsFeeds(categories: string[]): NonNullable<PageHead['feeds']> {
  return [
    { title: 'News', path: '/feeds/news.xml', type: 'application/atom+xml' },
    { title: 'Team posts', path: '/feeds/posts.xml', type: 'application/atom+xml' },
    ...categories.map((category) => ({
      title: `News: ${category}`,
      path: `/feeds/news.xml?category=${encodeURIComponent(category)}`,
      type: 'application/atom+xml' as const,
    })),
  ];
}

const decode = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

export function createPageHeads(deps: PageHeadsDeps) {
  const { db } = deps;
  const cache = new Map<string, { until: number; head: Promise<PageHead> }>();

  const anon = <T>(fn: (tx: import('../db/driver.ts').Queryable) => Promise<T>) =>
    db.withScope({ role: 'anon', claims: { role: 'anon' }, readOnly: true }, fn);

  const notFound = (what: string, description: string): PageHead => ({
    title: what,
    description,
    canonicalPath: null,
    noindex: true,
    missing: true,
  });

  async function brand(slug: string): Promise<PageHead> {
    const row =
      /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) && slug.length <= 80
        ? await anon((tx) => sql.brandHead(tx, slug))
        : null;
    if (!row) return notFound('Brand not found', 'This brand is not in the Brand Directory.');
    const path = `/brand-directory/${row.slug}`;
    const counted = (row.gas ?? 0) + (row.pass ?? 0);
    const where = [row.city, row.states.join(', ')].filter(Boolean).join(', ');
    const facts = [
      `${row.products ?? 0} ${row.products === 1 ? 'product' : 'products'}`,
      row.licences.length
        ? `${row.licences.length} ${row.licences.length === 1 ? 'licence' : 'licences'}`
        : null,
      counted >= MIN_RATED_VOTES
        ? `${Math.round(((row.gas ?? 0) / counted) * 100)}% Gas from ${counted} votes`
        : null,
    ].filter(Boolean);
    const description = `${row.name}${where ? ` (${where})` : ''}: ${facts.join(', ')} on the Brand Directory.${row.description ? ` ${row.description}` : ''}`;
    return {
      title: `${row.name} — Brand Directory`,
      description,
      // A merged brand's address forwards to the brand that stays: that page is the canonical one.
      canonicalPath: row.merged_into_slug ? `/brand-directory/${row.merged_into_slug}` : path,
      noindex: row.archived || row.is_sample || row.merged_into_slug !== null,
      type: 'website',
      image: `/og/brand/${row.slug}.png`,
      jsonLd: [
        organization(deps.site, {
          name: row.name,
          path,
          description: row.description,
          logoUrl: row.logo_url,
          website: row.website,
          socialLinks: row.social_links,
          licences: row.licences,
        }),
        breadcrumbs(deps.site, [
          ['Brand Directory', '/brand-directory'],
          [row.name, path],
        ]),
      ],
    };
  }

  async function productPage(id: string): Promise<PageHead> {
    const row = id.length <= 100 ? await anon((tx) => sql.productHead(tx, id)) : null;
    if (!row)
      return notFound('Product not found', 'This product is not on Pass or Gas: it may have been archived.');
    const path = `/pass-or-gas/${encodeURIComponent(row.id)}`;
    const votes =
      row.counted === 0
        ? 'No counted votes yet'
        : row.counted < MIN_RATED_VOTES
          ? `Only ${row.counted} counted ${row.counted === 1 ? 'vote' : 'votes'} so far`
          : `${Math.round((row.gas / row.counted) * 100)}% Gas from ${row.counted} counted votes`;
    // Only a rated product is a valid product snippet (decision 184).
    const rated = product(deps.site, {
      name: row.name,
      path,
      description: row.description,
      category: row.category,
      imageUrl: row.image_url,
      brandName: row.brand_name,
      gas: row.gas,
      pass: row.pass,
    });
    return {
      title: `${row.name} — Pass or Gas`,
      description: `${row.name}: ${row.category}${row.brand_name ? ` by ${row.brand_name}` : ''}. ${votes} on Pass or Gas.${row.description ? ` ${row.description}` : ''}`,
      canonicalPath: path,
      // Sample content is labelled on the page and kept out of search results (decision 186).
      noindex: row.is_sample,
      type: 'product',
      image: `/og/product/${encodeURIComponent(row.id)}.png`,
      jsonLd: [
        ...(rated ? [rated] : []),
        breadcrumbs(deps.site, [
          ['Pass or Gas', '/pass-or-gas'],
          [row.name, path],
        ]),
      ],
    };
  }

  async function post(id: string): Promise<PageHead> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await anon((tx) => sql.postHead(tx, id)) : null;
    if (!row) return notFound('Post not found', 'This post does not exist or is not published.');
    const path = `/news/posts/${row.id}`;
    return {
      title: `${row.title} — News`,
      description: markdownText(row.content),
      canonicalPath: path,
      noindex: false,
      type: 'article',
      image: row.media_urls[0] ?? null,
      publishedTime: row.published_at,
      modifiedTime: row.updated_at,
      jsonLd: [
        newsArticle(deps.site, {
          title: row.title,
          path,
          content: row.content,
          images: row.media_urls,
          publishedAt: row.published_at,
          modifiedAt: row.updated_at,
        }),
        breadcrumbs(deps.site, [
          ['News', '/news'],
          [row.title, path],
        ]),
      ],
    };
  }

  /**
   * A member's page says what member_profile shows a visitor, and no more. Members' pages are never
   * indexed (decision 183): a profile is findable by link, not by searching a member's name.
   */
  async function member(username: string): Promise<PageHead> {
    const profile = username.length <= 64 ? await anon((tx) => sql.memberProfile(tx, username)) : null;
    if (!profile || profile.status === 'not_found') {
      return notFound('Member not found', 'There is no member with this username.');
    }
    const name = String(profile.username);
    if (profile.status !== 'visible') {
      return {
        title: 'Private profile',
        description: 'This member keeps their profile private.',
        canonicalPath: null,
        noindex: true,
      };
    }
    const displayName =
      typeof profile.display_name === 'string' && profile.display_name ? profile.display_name : null;
    const bio = typeof profile.bio === 'string' ? profile.bio : '';
    return {
      title: displayName ? `${displayName} (@${name})` : `@${name}`,
      description: bio || `@${name} on ${deps.site.siteName}.`,
      canonicalPath: `/u/${encodeURIComponent(name)}`,
      noindex: true,
      type: 'profile',
      image: typeof profile.avatar_url === 'string' ? profile.avatar_url : null,
    };
  }

  async function methodology(slug: string): Promise<PageHead> {
    const row = slug.length <= 80 ? await anon((tx) => sql.indexHead(tx, slug)) : null;
    if (!row) return notFound('Index methodology', 'There is no market index at this address.');
    const path = `/market-index/${encodeURIComponent(row.slug)}/methodology`;
    return {
      title: `${row.name}: methodology`,
      description: `How the ${row.name} is computed: its constituents, weights, base and sources.${row.description ? ` ${row.description}` : ''}`,
      canonicalPath: path,
      noindex: false,
      jsonLd: [
        breadcrumbs(deps.site, [
          ['Market Index', '/market-index'],
          [`${row.name}: methodology`, path],
        ]),
      ],
    };
  }

  async function categories(): Promise<string[]> {
    return anon((tx) => sql.feedCategories(tx));
  }

  /** The head of a path (no query string); `prerenderedTitle` is a prerendered page's own title. */
  async function build(path: string, prerenderedTitle?: string): Promise<PageHead> {
    const segments = path.split('/').slice(1).map(decode);
    if (segments.some((segment) => segment === null))
      return notFound('Page not found', 'There is no page at this address.');
    const [first, second, third, fourth] = segments as string[];
    const staticPage = STATIC_PAGES[path];
    if (staticPage) {
      return {
        title: prerenderedTitle ?? staticPage.title,
        description: site(staticPage.description, deps.site.siteName),
        canonicalPath: path,
        noindex: false,
        jsonLd: path === '/' ? [webSite(deps.site)] : undefined,
        feeds: staticPage.feeds ? newsFeeds(await categories()) : undefined,
      };
    }
    const privateTitle = privatePage(path);
    if (privateTitle) {
      return {
        title: privateTitle,
        description: `Members' area of ${deps.site.siteName}.`,
        canonicalPath: null,
        noindex: true,
      };
    }
    if (segments.length === 2 && first === 'brand-directory' && second) return brand(second);
    if (segments.length === 2 && first === 'pass-or-gas' && second) return productPage(second);
    if (segments.length === 3 && first === 'news' && second === 'posts' && third) return post(third);
    if (segments.length === 2 && first === 'u' && second) return member(second);
    if (segments.length === 3 && first === 'market-index' && second && third === 'methodology') {
      return methodology(second);
    }
    void fourth;
    return notFound('Page not found', 'There is no page at this address.');
  }

  /** The head of a page, cached briefly per path; every page noindex when indexing is off. */
  async function headFor(path: string, prerenderedTitle?: string): Promise<PageHead> {
    const now = Date.now();
    let entry = cache.get(path);
    if (!entry || entry.until < now) {
      if (!isAppRoute(path) && path !== '/') {
        entry = {
          until: now + HEAD_CACHE_MS,
          head: Promise.resolve(notFound('Page not found', 'There is no page at this address.')),
        };
      } else {
        const head = build(path, prerenderedTitle);
        entry = { until: now + HEAD_CACHE_MS, head };
        // A failed read is not kept: the next request asks again.
        head.catch(() => cache.delete(path));
      }
      if (cache.size >= HEAD_CACHE_ENTRIES) {
        for (const [key, value] of cache)
          if (value.until < now || cache.size >= HEAD_CACHE_ENTRIES) cache.delete(key);
      }
      cache.set(path, entry);
    }
    const head = await entry.head;
    return deps.indexing ? head : { ...head, noindex: true };
  }

  return { headFor };
}

export type PageHeads = ReturnType<typeof createPageHeads>;
