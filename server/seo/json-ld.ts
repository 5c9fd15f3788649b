/**
 * Structured data for search engines (decision 184), typed with schema-dts: Organization for a brand
 * (its licences as `identifier` PropertyValues), Product (an `aggregateRating` only from
 * MIN_RATED_VOTES counted votes on), NewsArticle for a team post, BreadcrumbList on detail pages and
 * WebSite with its SearchAction on the home page. Written into the head by head.ts, escaped there.
 */
import type {
  BreadcrumbList,
  NewsArticle,
  Organization,
  Product,
  PropertyValue,
  SearchAction,
  WebSite,
  WithContext,
} from 'schema-dts';
import { absoluteUrl, markdownText, type SiteInfo, summarise } from './head.ts';

/**
 * The small-sample rule of the product page (FEW_VOTES in web/src/features/pass-or-gas/ranking.ts):
 * below this many counted votes the page shows a range, not a percentage, and the structured data
 * has no rating either.
 */
export const MIN_RATED_VOTES = 10;

/** The search box of the site: the news page's search (it covers articles and the team's posts). */
export const SEARCH_PATH = '/news?q=';

export function webSite(site: SiteInfo): WithContext<WebSite> {
  const action: SearchAction & { 'query-input': string } = {
    '@type': 'SearchAction',
    target: { '@type': 'EntryPoint', urlTemplate: `${site.siteUrl}${SEARCH_PATH}{search_term_string}` },
    'query-input': 'required name=search_term_string',
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: site.siteName,
    url: `${site.siteUrl}/`,
    potentialAction: action,
  };
}

/** The trail from home to a detail page; the last item is the page itself. */
export function breadcrumbs(
  site: SiteInfo,
  trail: [name: string, path: string][],
): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [['Home', '/'] as [string, string], ...trail].map(([name, path], index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: absoluteUrl(site, path),
    })),
  };
}

export interface BrandData {
  name: string;
  path: string;
  description: string;
  logoUrl: string | null;
  website: string | null;
  socialLinks: string[];
  licences: { number: string; state: string; type: string | null }[];
}

export function organization(site: SiteInfo, brand: BrandData): WithContext<Organization> {
  const sameAs = [brand.website, ...brand.socialLinks].filter((link): link is string => Boolean(link));
  const identifier: PropertyValue[] = brand.licences.map((licence) => ({
    '@type': 'PropertyValue',
    propertyID: `${licence.state} cannabis licence${licence.type ? ` (${licence.type})` : ''}`,
    value: licence.number,
  }));
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: brand.name,
    url: absoluteUrl(site, brand.path),
    ...(brand.description ? { description: summarise(brand.description, 500) } : {}),
    ...(brand.logoUrl ? { logo: brand.logoUrl } : {}),
    ...(sameAs.length ? { sameAs } : {}),
    ...(identifier.length ? { identifier } : {}),
  };
}

export interface ProductData {
  name: string;
  path: string;
  description: string | null;
  category: string;
  imageUrl: string | null;
  brandName: string | null;
  gas: number;
  pass: number;
}

/**
 * A product, or null below MIN_RATED_VOTES counted votes. Pass or Gas is a yes/no vote: the rating is
 * the Gas share in percent (worst 0, best 100) over the counted votes (decision 184). Nothing is sold
 * here, so a Product is a product snippet, which needs an aggregateRating (or offers or a review) to be
 * valid: an unrated product's page carries only its breadcrumbs.
 */
export function product(site: SiteInfo, data: ProductData): WithContext<Product> | null {
  const counted = data.gas + data.pass;
  if (counted < MIN_RATED_VOTES) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: data.name,
    url: absoluteUrl(site, data.path),
    category: data.category,
    ...(data.description ? { description: summarise(data.description, 500) } : {}),
    ...(data.imageUrl ? { image: data.imageUrl } : {}),
    ...(data.brandName ? { brand: { '@type': 'Brand', name: data.brandName } } : {}),
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: Math.round((data.gas / counted) * 100),
      bestRating: 100,
      worstRating: 0,
      ratingCount: counted,
    },
  };
}

export interface PostData {
  title: string;
  path: string;
  content: string;
  images: string[];
  publishedAt: string;
  modifiedAt: string;
}

export function newsArticle(site: SiteInfo, post: PostData): WithContext<NewsArticle> {
  const publisher: Organization = { '@type': 'Organization', name: site.siteName, url: `${site.siteUrl}/` };
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: post.title.slice(0, 110),
    description: summarise(markdownText(post.content)),
    url: absoluteUrl(site, post.path),
    mainEntityOfPage: absoluteUrl(site, post.path),
    datePublished: post.publishedAt,
    dateModified: post.modifiedAt,
    ...(post.images.length ? { image: post.images } : {}),
    author: publisher,
    publisher,
  };
}
