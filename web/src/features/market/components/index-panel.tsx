import { useQuery } from '@tanstack/react-query';
import { Download, FlaskConical, History } from 'lucide-react';
import { useDeferredValue, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { cn } from '#web/lib/utils.ts';
import { type MarketIndex, pointRevisionsQueryOptions, pointsQueryOptions } from '../api/market.ts';
import {
  formatChange,
  formatValue,
  headlineOf,
  type IndexPoint,
  isStale,
  pointsCsv,
  RANGES,
  type RangeKey,
  staleText,
  todayUtc,
} from '../market-data.ts';
import { EquityConstituents, FlowerStates } from './constituents.tsx';
import { IndexChart } from './index-chart.tsx';
import { StaleMarker } from './stale-marker.tsx';

interface IndexPanelProps {
  index: MarketIndex;
  range: RangeKey;
  onRangeChange: (range: RangeKey) => void;
}

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
  const { last, change, changeRange, stale } = headlineOf(index.kind, data, range, todayUtc());
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
        {/* One column on phones whatever the numbers' widths, so their arrival changes no height. */}
        <div className="mt-3 grid grid-cols-1 gap-y-2 sm:flex sm:flex-wrap sm:items-end sm:gap-x-6">
          <div>
            <div className="text-muted-foreground text-xs uppercase tracking-wide">Current value</div>
            <div className="font-semibold text-3xl tabular-nums" data-testid="current-value">
              {last ? formatValue(last.value) : points.isPending && index.has_values ? '…' : '—'}
            </div>
            {/* The line is there while the values load too, so nothing below moves when they arrive. */}
            <div className="text-muted-foreground text-xs" data-testid="current-as-of">
              {last ? `As of ${last.date} · computed ${last.as_of.slice(0, 10)}` : '\u00a0'}
            </div>
            {latestDate && showStale ? <StaleMarker text={staleText(index.kind, latestDate)} /> : null}
          </div>
          <div>
            <div className="text-muted-foreground text-xs uppercase tracking-wide">Change</div>
            <div
              data-testid="range-change"
              className={cn(
                'font-medium tabular-nums',
                change && change.absolute > 0 && 'text-emerald-700 dark:text-emerald-400',
                change && change.absolute < 0 && 'text-red-700 dark:text-red-400',
              )}
            >
              {change ? formatChange(change) : '—'}
            </div>
            <div className="text-muted-foreground text-xs" data-testid="range-change-range">
              {changeRange ?? `${range}: fewer than two values`}
            </div>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <fieldset className="flex flex-wrap gap-1" aria-label={`${index.name}: range`}>
            <legend className="sr-only">Range</legend>
            {RANGES.map((key) => (
              <Button
                key={key}
                size="sm"
                variant={key === range ? 'default' : 'outline'}
                aria-pressed={key === range}
                onClick={() => onRangeChange(key)}
              >
                {key}
              </Button>
            ))}
          </fieldset>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={data.length === 0}
              onClick={() => download(`${index.slug}-${range}.csv`, pointsCsv(index.slug, data))}
            >
              <Download aria-hidden="true" className="size-4" />
              Download CSV
            </Button>
            <Button size="sm" variant="ghost" asChild>
              <Link to={`/market-index/${index.slug}/methodology`}>Methodology</Link>
            </Button>
          </div>
        </div>

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

/**
 * Rows the values table renders at first. Its box shows about nine; a year of daily values is 260 rows,
 * whose style and layout were the page's longest task (decision 160). The rest on request, and in the
 * CSV download.
 */
const FIRST_ROWS = 40;

function PointsTable({
  index,
  range,
  points,
  demo,
  revisions,
}: {
  index: MarketIndex;
  range: RangeKey;
  points: IndexPoint[];
  demo: boolean;
  revisions: { date: string; revision: number; value: number; replaced_at: string }[];
}) {
  const byDate = new Map<string, typeof revisions>();
  for (const revision of revisions)
    byDate.set(revision.date, [...(byDate.get(revision.date) ?? []), revision]);
  const [showAll, setShowAll] = useState(false);
  const box = useRef<HTMLElement>(null);
  const rows = [...points].reverse();
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  const hidden = rows.length - shown.length;
  return (
    <section
      ref={box}
      aria-label={`${index.name}: values`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
      tabIndex={0}
      className="render-near-view max-h-80 overflow-auto rounded-md border [--near-view-height:20rem] focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className="w-full text-sm" data-testid="points-table" data-range={range}>
        <caption className="px-3 py-2 text-left text-muted-foreground text-xs">
          {points.length} values, newest first
          {hidden > 0 ? ` (the newest ${shown.length} shown)` : ''}
          {demo ? ' — demonstration series, generated, not market data' : ''}. Carried values repeat an
          earlier input and are marked.
        </caption>
        <thead className="sticky top-0 bg-muted text-left text-xs">
          <tr>
            <th scope="col" className="px-3 py-2">
              Date
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Value
            </th>
            <th scope="col" className="px-3 py-2">
              Source
            </th>
            <th scope="col" className="px-3 py-2">
              As of
            </th>
            <th scope="col" className="px-3 py-2">
              Revision
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((point) => (
            <tr key={point.date} className="border-t align-top" data-date={point.date}>
              <th scope="row" className="whitespace-nowrap px-3 py-1.5 text-left font-normal tabular-nums">
                {point.date}
              </th>
              <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums">
                {formatValue(point.value)}
                {point.carried ? (
                  <Badge variant="outline" className="ml-2 border-amber-500/60 text-[10px]">
                    carried
                  </Badge>
                ) : null}
                {point.is_sample ? <span className="sr-only"> (demonstration)</span> : null}
              </td>
              <td className="min-w-64 px-3 py-1.5 text-muted-foreground text-xs">
                {point.source}
                {point.detail ? <div className="mt-0.5">{point.detail}</div> : null}
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 text-xs">{point.as_of.slice(0, 10)}</td>
              <td className="whitespace-nowrap px-3 py-1.5 text-xs">
                {point.revision}
                {(byDate.get(point.date) ?? []).length > 0 ? (
                  <details className="mt-1">
                    <summary className="inline-flex cursor-pointer items-center gap-1">
                      <History aria-hidden="true" className="size-3" />
                      History
                    </summary>
                    <ul className="mt-1 space-y-0.5">
                      {(byDate.get(point.date) ?? []).map((old) => (
                        <li key={old.revision}>
                          rev {old.revision}: {formatValue(old.value)} (replaced{' '}
                          {old.replaced_at.slice(0, 10)})
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {hidden > 0 ? (
        <div className="border-t p-2 text-center">
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setShowAll(true);
              // The button goes away: the keyboard stays in the table's scrolling box.
              box.current?.focus();
            }}
          >
            Show all {rows.length} values
          </Button>
        </div>
      ) : null}
    </section>
  );
}
