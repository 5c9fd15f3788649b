import { useQuery } from '@tanstack/react-query';
import { LineChart } from 'lucide-react';
import { Link } from 'react-router';
import { headlinesQueryOptions } from '#web/features/market/api/get-headlines.ts';
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
import { cn } from '#web/lib/utils.ts';
import { HomeSection, SampleLabel, Slots } from './home-section.tsx';

const INDEX_GRID = 'grid gap-4 sm:grid-cols-2';
// Name, value and sparkline, as-of date, change with its range, and room for a stale marker.
const INDEX_ITEM = 'h-48';

export function IndexHeadlines() {
  // One query, one client for its reads (a visitor's public one, decision 158).
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
