import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { formatNumber } from '#web/lib/format.ts';
import { yieldToMain } from '#web/lib/yield-to-main.ts';
import { formatValue, type IndexPoint } from '../market-data.ts';

interface IndexChartProps {
  points: readonly IndexPoint[];
  /** What the chart shows, for its accessible name. */
  label: string;
}

const HEIGHT = 280;

function toSeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

/**
 * The index over the selected range (uPlot, loaded on first use). Carried values are drawn as
 * separate hollow markers ("Carried value" in the legend); the tooltip names the point's date,
 * value, source and as-of. The table beside it holds the same points for keyboard and screen readers.
 */
export function IndexChart({ points, label }: IndexChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [hover, setHover] = useState<{ point: IndexPoint; left: number } | null>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let nearby: IntersectionObserver | null = null;
    let cancelled = false;
    // Drawn when the reader comes near it: a chart further down the page (or in a part the browser has
    // not laid out yet, decision 160) costs the page's first seconds nothing. Its library loads at once.
    const near = new Promise<void>((resolve) => {
      nearby = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          nearby?.disconnect();
          resolve();
        },
        { rootMargin: '50% 0px' },
      );
      nearby.observe(element);
    });
    Promise.all([import('./uplot.ts'), near])
      .then(async ([{ default: UPlot }]) => {
        // Each chart is drawn in a task of its own, not all at once with the page's effects (TBT).
        await yieldToMain();
        if (cancelled) return;
        const xs = points.map((point) => toSeconds(point.date));
        const values = points.map((point) => point.value);
        const carried = points.map((point) => (point.carried ? point.value : null));
        const options: uPlot.Options = {
          width: Math.max(element.clientWidth, 280),
          height: HEIGHT,
          scales: { x: { time: true } },
          legend: { show: true, live: false },
          cursor: { drag: { x: false, y: false }, points: { size: 8 } },
          series: [
            {},
            { label: 'Index', stroke: 'hsl(142 55% 38%)', width: 2, points: { show: points.length < 60 } },
            {
              label: 'Carried value',
              stroke: 'hsl(32 90% 45%)',
              fill: 'transparent',
              paths: () => null,
              points: { show: true, size: 9, width: 2, fill: 'transparent' },
            },
          ],
          // The value axis formatted here, not by uPlot's Intl formatter: the page sets up no ICU (decision 162).
          axes: [
            { stroke: 'currentColor' },
            {
              stroke: 'currentColor',
              size: 60,
              values: (_plot, splits) => splits.map((split) => (split == null ? '' : formatNumber(split))),
            },
          ],
          hooks: {
            setCursor: [
              (u) => {
                const index = u.cursor.idx;
                const point = index === null || index === undefined ? undefined : points[index];
                setHover(point ? { point, left: u.cursor.left ?? 0 } : null);
              },
            ],
          },
        };
        plot = new UPlot(options, [xs, values, carried], element);
        observer = new ResizeObserver(() => {
          if (plot && element.clientWidth > 0)
            plot.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT });
        });
        observer.observe(element);
        setReady(true);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      nearby?.disconnect();
      observer?.disconnect();
      plot?.destroy();
      setHover(null);
    };
  }, [points]);

  return (
    <figure className="relative m-0" data-testid="index-chart" data-points={points.length}>
      <div
        ref={holder}
        role="img"
        aria-label={`${label}: chart of ${points.length} points. The table below lists the same values.`}
        className="min-h-[280px] w-full text-muted-foreground text-xs"
      />
      {!ready && !failed ? <Skeleton className="absolute inset-x-0 top-0 h-[280px]" /> : null}
      {failed ? (
        <p className="absolute inset-x-0 top-24 text-center text-muted-foreground text-sm">
          The chart could not be loaded; the table below has every value.
        </p>
      ) : null}
      {hover ? (
        <div
          role="status"
          data-testid="chart-tooltip"
          className="pointer-events-none absolute top-2 z-10 max-w-72 rounded-md border bg-popover p-2 text-popover-foreground text-xs shadow-md"
          style={{
            left: Math.min(
              Math.max(hover.left - 60, 0),
              Math.max((holder.current?.clientWidth ?? 300) - 290, 0),
            ),
          }}
        >
          <div className="font-semibold">
            {hover.point.date}: {formatValue(hover.point.value)}
            {hover.point.carried ? ' (carried)' : ''}
          </div>
          <div className="mt-1 line-clamp-3">Source: {hover.point.source}</div>
          <div className="mt-1 text-muted-foreground">As of {hover.point.as_of.slice(0, 10)}</div>
        </div>
      ) : null}
    </figure>
  );
}
