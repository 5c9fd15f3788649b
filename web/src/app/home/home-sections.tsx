import { useQuery } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import { ArrowRight, BadgeCheck, Flame, LineChart, Megaphone, Newspaper } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { checkedDate } from '#web/features/brands/components/brand-badges.tsx';
import { headlinesQueryOptions } from '#web/features/market/api/market.ts';
import { Sparkline } from '#web/features/market/components/sparkline.tsx';
import { StaleMarker } from '#web/features/market/components/stale-marker.tsx';
import {
  formatChange,
  formatValue,
  HEADLINE_RANGE,
  headlineOf,
  staleText,
  todayUtc,
} from '#web/features/market/market-data.ts';
import { fullDate, postPath, relativeTime } from '#web/features/news/news-feed.ts';
import { errorText } from '#web/lib/error-text.ts';
import { FEW_VOTES, gasShare } from '#web/lib/gas-share.ts';
import { cn } from '#web/lib/utils.ts';
import {
  featuredPostsQueryOptions,
  HOME_COUNTS,
  latestNewsQueryOptions,
  leadersQueryOptions,
  newestBrandsQueryOptions,
} from './home-data.ts';

/** A sample item says so, to eyes and to screen readers, as on its own page (product §samples). */
function SampleLabel({ what }: { what: string }) {
  return (
    <Badge variant="outline" className="shrink-0 border-amber-500 text-amber-700 dark:text-amber-300">
      Sample
      <span className="sr-only"> — {what}</span>
    </Badge>
  );
}

interface SectionQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * One home section: its heading and a link to its page, then a box of a fixed size (`boxClassName`)
 * that holds the placeholders while loading, the items, the empty state or the error — so nothing
 * below it moves when the data arrive (no layout shift).
 */
function HomeSection({
  id,
  title,
  link,
  linkLabel,
  icon: Icon,
  query,
  isEmpty,
  empty,
  skeleton,
  boxClassName,
  heightEstimate,
  children,
}: {
  id: string;
  title: string;
  link: string;
  linkLabel: string;
  icon: LucideIcon;
  query: SectionQuery;
  isEmpty: boolean;
  empty: ReactNode;
  skeleton: ReactNode;
  boxClassName: string;
  /** The section's usual height (`--near-view-height`), reserved while it is below the fold. */
  heightEstimate: string;
  children: ReactNode;
}) {
  const titleId = `home-${id}-title`;
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div role="status" className="flex-1">
        <span className="sr-only">Loading {title.toLowerCase()}…</span>
        {skeleton}
      </div>
    );
  } else if (query.isError) {
    body = (
      <div role="alert" className="flex flex-1 flex-col items-start justify-center rounded-xl border p-6">
        <p className="font-medium">{title} could not be loaded.</p>
        <p className="mt-1 text-muted-foreground text-sm">{errorText(query.error)}</p>
        <Button className="mt-4" variant="outline" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (isEmpty) {
    body = (
      <div className="flex flex-1 flex-col items-center justify-center rounded-xl border border-dashed bg-card/50 p-6 text-center">
        <Icon aria-hidden="true" className="size-8 text-primary" />
        <div className="mt-3 max-w-md text-muted-foreground">{empty}</div>
      </div>
    );
  } else {
    body = children;
  }
  return (
    <section
      aria-labelledby={titleId}
      className={cn('render-near-view mt-14', heightEstimate)}
      data-testid={`home-${id}`}
    >
      <div className="flex items-end justify-between gap-4">
        <h2 id={titleId} className="flex items-center gap-2 font-bold text-2xl tracking-tight">
          <Icon aria-hidden="true" className="size-6 text-primary" />
          {title}
        </h2>
        <Link
          to={link}
          className="inline-flex shrink-0 items-center gap-1 font-medium text-primary text-sm hover:underline"
        >
          {linkLabel}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      <div className={cn('mt-6 flex flex-col', boxClassName)}>{body}</div>
    </section>
  );
}

function Slots({
  count,
  className,
  itemClassName,
}: {
  count: number;
  className: string;
  itemClassName: string;
}) {
  return (
    <div className={className}>
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <Skeleton key={index} className={itemClassName} />
      ))}
    </div>
  );
}

/** Markdown to one line of plain text for an excerpt (the post's page renders the real thing). */
function excerpt(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const FEATURED_GRID = 'grid gap-4 md:grid-cols-3';
const FEATURED_ITEM = 'h-44';

export function FeaturedPosts() {
  const query = useQuery(featuredPostsQueryOptions());
  const posts = query.data ?? [];
  return (
    <HomeSection
      id="featured"
      title="Featured from the team"
      link="/news?category=Team"
      linkLabel="All team posts"
      icon={Megaphone}
      query={query}
      isEmpty={posts.length === 0}
      empty="No featured posts yet. When the team features a post, it appears here."
      boxClassName="min-h-44"
      heightEstimate="[--near-view-height:17rem] lg:[--near-view-height:15rem]"
      skeleton={
        <Slots count={HOME_COUNTS.featured} className={FEATURED_GRID} itemClassName={FEATURED_ITEM} />
      }
    >
      <ul className={FEATURED_GRID}>
        {posts.map((post) => (
          <li
            key={post.id}
            className={cn(FEATURED_ITEM, 'flex flex-col rounded-xl border bg-card p-4 shadow-sm')}
          >
            <Badge className="self-start">From the team</Badge>
            <h3 className="mt-2 line-clamp-2 font-semibold text-lg leading-snug">
              <Link to={postPath(post.id)} className="hover:underline focus-visible:underline">
                {post.title}
              </Link>
            </h3>
            <p className="mt-1 line-clamp-2 text-muted-foreground text-sm">{excerpt(post.content)}</p>
            <time
              dateTime={post.publishedAt}
              title={fullDate(post.publishedAt)}
              className="mt-auto text-muted-foreground text-xs"
            >
              {relativeTime(post.publishedAt)}
            </time>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

const NEWS_GRID = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3';
const NEWS_ITEM = 'h-32';

export function LatestNews() {
  const query = useQuery(latestNewsQueryOptions());
  const entries = query.data ?? [];
  return (
    <HomeSection
      id="news"
      title="Latest news"
      link="/news"
      linkLabel="All news"
      icon={Newspaper}
      query={query}
      isEmpty={entries.length === 0}
      empty="No news yet. Articles from the configured sources appear here as they are fetched."
      boxClassName="min-h-36"
      heightEstimate="[--near-view-height:55rem] lg:[--near-view-height:20rem]"
      skeleton={<Slots count={HOME_COUNTS.news} className={NEWS_GRID} itemClassName={NEWS_ITEM} />}
    >
      <ul className={NEWS_GRID}>
        {entries.map((entry) => (
          <li
            key={`${entry.kind}-${entry.id}`}
            className={cn(NEWS_ITEM, 'flex flex-col rounded-xl border bg-card p-4 shadow-sm')}
          >
            <div className="flex items-center gap-2 text-xs">
              {entry.kind === 'post' ? (
                <Badge>From the team</Badge>
              ) : (
                <Badge variant="secondary">{entry.category}</Badge>
              )}
              {entry.is_sample ? (
                <SampleLabel what="shown until real news sources deliver articles; not real news" />
              ) : null}
            </div>
            <h3 className="mt-2 line-clamp-2 font-semibold leading-snug">
              {entry.url ? (
                <a href={entry.url} target="_blank" rel="noopener noreferrer" className="hover:underline">
                  {entry.title}
                  <span className="sr-only"> (opens {entry.source_name} in a new tab)</span>
                </a>
              ) : (
                entry.title
              )}
            </h3>
            <p className="mt-auto truncate text-muted-foreground text-xs">
              {entry.source_name} ·{' '}
              <time dateTime={entry.published_at} title={fullDate(entry.published_at)}>
                {relativeTime(entry.published_at)}
              </time>
            </p>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

const LEADER_ITEM = 'h-14';

export function PassOrGasLeaders() {
  const query = useQuery(leadersQueryOptions());
  const leaders = query.data ?? [];
  return (
    <HomeSection
      id="leaders"
      // The all-time Top list (Wilson lower bound over every counted vote), so named (decision 208).
      title="Top-rated on Pass or Gas"
      link="/pass-or-gas"
      linkLabel="All rankings"
      icon={Flame}
      query={query}
      isEmpty={leaders.length === 0}
      empty="No products to rank yet. Products appear here once they are added and voted on."
      boxClassName="min-h-36"
      heightEstimate="[--near-view-height:25rem] lg:[--near-view-height:23rem]"
      skeleton={<Slots count={HOME_COUNTS.leaders} className="grid gap-2" itemClassName={LEADER_ITEM} />}
    >
      <ol className="grid grid-cols-1 gap-2">
        {leaders.map((product, index) => (
          <li
            key={product.id}
            className={cn(LEADER_ITEM, 'flex items-center gap-3 rounded-xl border bg-card px-4')}
          >
            <span className="w-6 shrink-0 font-bold text-muted-foreground tabular-nums">{index + 1}</span>
            <div className="min-w-0 flex-1">
              <Link to={`/pass-or-gas/${product.id}`} className="block truncate font-medium hover:underline">
                {product.name}
              </Link>
              <p className="truncate text-muted-foreground text-xs">{product.brand_name ?? 'No brand'}</p>
            </div>
            {product.is_sample ? (
              <SampleLabel what="an example product shown until real products are added, not a real product" />
            ) : null}
            <span className="shrink-0 text-right text-sm tabular-nums">
              {product.counted === 0 ? (
                <span className="text-muted-foreground">No votes yet</span>
              ) : (
                // Under 10 counted votes the 95% range, as on the product's card (decision 208).
                <span className="font-semibold" data-testid="leader-share">
                  {gasShare(product.gas, product.pass)}
                  <span className="block font-normal text-muted-foreground text-xs">
                    {product.counted < FEW_VOTES ? 'only ' : ''}
                    {product.counted} {product.counted === 1 ? 'vote' : 'votes'}
                  </span>
                </span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </HomeSection>
  );
}

const INDEX_GRID = 'grid gap-4 sm:grid-cols-2';
// Name, value and sparkline, as-of date, change with its range, and room for a stale marker.
const INDEX_ITEM = 'h-48';

export function IndexHeadlines() {
  const query = useQuery(headlinesQueryOptions());
  const shown = (query.data ?? []).filter((headline) => headline.points.length > 0);
  return (
    <HomeSection
      id="market"
      title="Market index"
      link="/market-index"
      linkLabel="Charts and methodology"
      icon={LineChart}
      query={query}
      isEmpty={shown.length === 0}
      empty="No index values yet. They appear here once market data is imported."
      boxClassName="min-h-48"
      heightEstimate="[--near-view-height:28rem] lg:[--near-view-height:16rem]"
      skeleton={<Slots count={2} className={INDEX_GRID} itemClassName={INDEX_ITEM} />}
    >
      <ul className={INDEX_GRID}>
        {shown.map((headline) => {
          // The index page's computation for the same range (decision 206).
          const { last, change, changeRange, stale } = headlineOf(
            headline.kind,
            headline.points,
            HEADLINE_RANGE,
            todayUtc(),
          );
          const sample = headline.points.some((point) => point.is_sample);
          return (
            <li key={headline.slug} className={cn(INDEX_ITEM, 'flex flex-col rounded-xl border bg-card p-4')}>
              <div className="flex items-center gap-2">
                <Link to="/market-index" className="truncate font-medium hover:underline">
                  {headline.name}
                </Link>
                {sample ? (
                  <SampleLabel what="a demonstration series shown until real market data is imported" />
                ) : null}
              </div>
              <div className="mt-2 flex items-end justify-between gap-4">
                <div className="font-semibold text-2xl tabular-nums" data-testid="headline-value">
                  {last ? formatValue(last.value) : '—'}
                </div>
                <Sparkline
                  values={headline.points.map((point) => point.value)}
                  className="h-10 w-28 shrink-0 text-primary"
                />
              </div>
              <div className="text-muted-foreground text-xs" data-testid="headline-as-of">
                {last ? `As of ${last.date}` : ''}
              </div>
              {change ? (
                <div className="text-muted-foreground text-xs">
                  <span data-testid="headline-change" className="tabular-nums">
                    {formatChange(change)}
                  </span>{' '}
                  <span data-testid="headline-change-range">{changeRange}</span>
                </div>
              ) : null}
              {last && stale ? <StaleMarker text={staleText(headline.kind, last.date, true)} /> : null}
            </li>
          );
        })}
      </ul>
    </HomeSection>
  );
}

const BRANDS_GRID = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-4';
const BRAND_ITEM = 'h-20';

export function NewestBrands() {
  const query = useQuery(newestBrandsQueryOptions());
  const brands = query.data ?? [];
  return (
    <HomeSection
      id="brands"
      // The most recently added brands whose licence check is current (decision 207), so named.
      title="Recently added brands with a verified licence"
      link="/brand-directory?verified=1&sort=newest"
      linkLabel="Brand directory"
      icon={BadgeCheck}
      query={query}
      isEmpty={brands.length === 0}
      empty="No verified brands yet. Brands appear here once their licence is verified (checks count for 12 months)."
      boxClassName="min-h-32"
      heightEstimate="[--near-view-height:14rem] lg:[--near-view-height:12.5rem]"
      skeleton={<Slots count={HOME_COUNTS.brands} className={BRANDS_GRID} itemClassName={BRAND_ITEM} />}
    >
      <ul className={BRANDS_GRID}>
        {brands.map((brand) => (
          <li
            key={brand.id}
            className={cn(BRAND_ITEM, 'flex items-center gap-3 rounded-xl border bg-card px-4')}
          >
            <div className="min-w-0 flex-1">
              <Link
                to={`/brand-directory/${brand.slug}`}
                className="block truncate font-medium hover:underline"
              >
                {brand.name}
              </Link>
              <p className="truncate text-muted-foreground text-xs">
                <BadgeCheck aria-hidden="true" className="mr-1 inline size-3.5 text-emerald-700" />
                {/* The licence number goes wherever a brand is promoted (issue 18; some states require it). */}
                Licence verified
                {brand.licence_number
                  ? ` · ${brand.licence_state ? `${brand.licence_state} ` : ''}${brand.licence_number}`
                  : ''}
                {brand.states.length > 0 ? ` · ${brand.states.join(', ')}` : ''}
                {brand.verified_at ? ` · checked ${checkedDate(brand.verified_at)}` : ''}
              </p>
            </div>
            {brand.is_sample ? (
              <SampleLabel what="an example brand shown until real brands are added, not a real business" />
            ) : null}
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
