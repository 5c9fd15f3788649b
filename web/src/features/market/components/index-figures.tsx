import { cn } from '#web/lib/utils.ts';
import {
  formatChange,
  formatValue,
  type HeadlineFigures,
  type IndexPoint,
  type RangeKey,
  staleText,
} from '../market-data.ts';
import { StaleMarker } from './stale-marker.tsx';

/**
 * An index's current value with its as-of date (and a stale marker), and its change over the range. One
 * column on phones whatever the numbers' widths, so their arrival changes no height.
 */
export function IndexFigures({
  kind,
  range,
  headline,
  latestDate,
  showStale,
  loading,
}: {
  kind: 'equity' | 'flower';
  range: RangeKey;
  headline: HeadlineFigures<IndexPoint>;
  /** The latest value's date, known with the index before its values arrive. */
  latestDate: string | null;
  showStale: boolean;
  /** Whether values are on their way (the value reads "…" meanwhile, "—" when there are none). */
  loading: boolean;
}) {
  const { last, change, changeRange } = headline;
  return (
    <div className="mt-3 grid grid-cols-1 gap-y-2 sm:flex sm:flex-wrap sm:items-end sm:gap-x-6">
      <div>
        <div className="text-muted-foreground text-xs uppercase tracking-wide">Current value</div>
        <div className="font-semibold text-3xl tabular-nums" data-testid="current-value">
          {last ? formatValue(last.value) : loading ? '…' : '—'}
        </div>
        {/* The line is there while the values load too, so nothing below moves when they arrive. */}
        <div className="text-muted-foreground text-xs" data-testid="current-as-of">
          {last ? `As of ${last.date} · computed ${last.as_of.slice(0, 10)}` : '\u00a0'}
        </div>
        {latestDate && showStale ? <StaleMarker text={staleText(kind, latestDate)} /> : null}
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
  );
}
