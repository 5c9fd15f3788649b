import { useInfiniteQuery } from '@tanstack/react-query';
import { Newspaper } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { newsFeedQueryOptions } from '#web/features/news/api/get-news-feed.ts';
import { fullDate, relativeTime } from '#web/features/news/news-feed.ts';
import { cn } from '#web/lib/utils.ts';
import { HOME_COUNTS, HOME_STALE_TIME, LATEST_NEWS_FILTERS } from './home-data.ts';
import { HomeSection, SampleLabel, Slots } from './home-section.tsx';

const NEWS_GRID = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3';
const NEWS_ITEM = 'h-32';

export function LatestNews() {
  // The /news page's first page (the same cache entry), its newest entries.
  const query = useInfiniteQuery({
    ...newsFeedQueryOptions(LATEST_NEWS_FILTERS),
    staleTime: HOME_STALE_TIME,
    select: (feed) => (feed.pages[0] ?? []).slice(0, HOME_COUNTS.news),
  });
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
