import { useQuery } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useDeferredValue } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import type { MarketIndex } from '../api/get-indices.ts';
import { pointRevisionsQueryOptions } from '../api/get-point-revisions.ts';
import { pointsQueryOptions } from '../api/get-points.ts';
import { headlineOf, isStale, type RangeKey, todayUtc } from '../market-data.ts';
import { EquityConstituents } from './constituents.tsx';
import { FlowerStates } from './flower-states.tsx';
import { IndexActions } from './index-actions.tsx';
import { IndexChart } from './index-chart.tsx';
import { IndexFigures } from './index-figures.tsx';
import { PointsTable } from './points-table.tsx';

interface IndexPanelProps {
  index: MarketIndex;
  range: RangeKey;
  onRangeChange: (range: RangeKey) => void;
}

/** One index: value, change over the range, chart, the same points as a table, CSV, constituents. */
export function IndexPanel({ index, range, onRangeChange }: IndexPanelProps) {
  const points = useQuery(pointsQueryOptions(index.slug, range));
  const revisions = useQuery(pointRevisionsQueryOptions(index.slug));
  const data = points.data ?? [];
  // The chart and the table of values render in a render React can interrupt, not in the one the
  // answer arrives with: a year of values is a long table (TBT).
  const shown = useDeferredValue(points.data);
  // The same computation as the home page's (decision 206): value, as-of date, staleness, change.
  const headline = headlineOf(index.kind, data, range, todayUtc());
  const { last, stale } = headline;
  // Every range ends at the latest value, so its date (known with the index) tells staleness before the
  // values arrive, and the marker does not push the page down later.
  const latestDate = last?.date ?? index.latest_date;
  const showStale = last ? stale : latestDate !== null && isStale(index.kind, latestDate, todayUtc());
  // Known from the index before its values arrive, so the label does not push the page down later.
  const demo = points.data ? data.some((point) => point.is_sample) : index.latest_is_sample;
  const headingId = `index-${index.slug}`;

  return (
    <Card
      aria-labelledby={headingId}
      role="region"
      // A panel below the fold is laid out when the reader comes near it (decision 160).
      className="render-near-view [--near-view-height:110rem] lg:[--near-view-height:80rem]"
    >
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id={headingId} className="font-semibold text-xl leading-tight tracking-tight">
              {index.name}
            </h2>
            <CardDescription className="mt-1 max-w-2xl">{index.description}</CardDescription>
          </div>
          {demo ? (
            <Badge
              variant="secondary"
              className="border-amber-500/50 bg-amber-500/15 text-amber-900 dark:text-amber-200"
            >
              <FlaskConical aria-hidden="true" className="size-3.5" />
              Demonstration series — not market data
            </Badge>
          ) : null}
        </div>
        <IndexFigures
          kind={index.kind}
          range={range}
          headline={headline}
          latestDate={latestDate}
          showStale={showStale}
          loading={points.isPending && index.has_values}
        />
      </CardHeader>
      <CardContent className="space-y-5">
        <IndexActions index={index} range={range} points={data} onRangeChange={onRangeChange} />

        {points.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The index values could not be loaded: {errorText(points.error)}
          </p>
        ) : shown === undefined && index.has_values ? (
          // The chart's height and the values table's (max-h-80), so the sections below stay put.
          <>
            <Skeleton className="h-[280px] w-full" />
            <Skeleton className="h-80 w-full" />
          </>
        ) : shown === undefined || shown.length === 0 ? (
          <p className="rounded-md border border-dashed p-6 text-center text-muted-foreground text-sm">
            No values in this range yet.
          </p>
        ) : (
          <>
            <IndexChart
              points={shown}
              label={`${index.name}, ${range}${demo ? ', demonstration series' : ''}`}
            />
            <PointsTable
              index={index}
              range={range}
              points={shown}
              demo={demo}
              revisions={revisions.data ?? []}
            />
          </>
        )}

        {index.kind === 'equity' ? (
          <EquityConstituents slug={index.slug} />
        ) : (
          <FlowerStates slug={index.slug} />
        )}
      </CardContent>
    </Card>
  );
}
