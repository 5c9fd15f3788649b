import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { headlinesQueryOptions } from '../api/market.ts';
import { changeOver, formatChange, formatValue } from '../market-data.ts';

/** A plain SVG line through the values (no chart library on the home page). */
export function Sparkline({ values, className }: { values: number[]; className?: string }) {
  if (values.length < 2) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = values
    .map(
      (value, index) =>
        `${((index / (values.length - 1)) * 100).toFixed(2)},${(28 - ((value - min) / span) * 26).toFixed(2)}`,
    )
    .join(' ');
  return (
    <svg viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true" className={className}>
      <polyline
        points={points}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

/** The home page's index headline (product §home, §market-index): each index's value, change and sparkline. */
export function IndexHeadline() {
  const headlines = useQuery(headlinesQueryOptions());
  const shown = (headlines.data ?? []).filter((headline) => headline.points.length > 0);
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="market-headline-title" className="mt-14">
      <h2 id="market-headline-title" className="font-bold text-2xl tracking-tight">
        Market index
      </h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {shown.map((headline) => {
          const last = headline.points.at(-1);
          const change = changeOver(headline.points.slice(-2));
          const demo = headline.points.some((point) => point.is_sample);
          return (
            <li key={headline.slug} className="rounded-xl border bg-card p-4">
              <Link to="/market-index" className="font-medium hover:underline">
                {headline.name}
              </Link>
              {demo ? (
                <span className="ml-2 text-muted-foreground text-xs">(demonstration series)</span>
              ) : null}
              <div className="mt-2 flex items-end justify-between gap-4">
                <div>
                  <div className="font-semibold text-2xl tabular-nums">
                    {last ? formatValue(last.value) : '—'}
                  </div>
                  <div className="text-muted-foreground text-xs">
                    {last?.date}
                    {change ? ` · ${formatChange(change)}` : ''}
                  </div>
                </div>
                <Sparkline
                  values={headline.points.map((point) => point.value)}
                  className="h-10 w-32 text-primary"
                />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
