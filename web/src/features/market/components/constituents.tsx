import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useDeferredValue } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import { formatFixed } from '#web/lib/format.ts';
import { constituentsQueryOptions, flowerObservationsQueryOptions } from '../api/market.ts';
import { formatValue, isStale, observationLabel, staleText, todayUtc } from '../market-data.ts';
import { FlowerSeries } from './flower-series.tsx';
import { StaleMarker } from './stale-marker.tsx';

function money(value: number, digits = 2): string {
  return formatFixed(value, digits);
}

/** The equity index's constituents: equal weights, last close and change, source. */
export function EquityConstituents({ slug }: { slug: string }) {
  const constituents = useQuery(constituentsQueryOptions(slug));
  // The table renders in a render React can interrupt, not in the one the answer arrives with (TBT).
  const rows = useDeferredValue(constituents.data);
  if (constituents.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        The constituents could not be loaded: {errorText(constituents.error)}
      </p>
    );
  }
  if (rows === undefined) return <p className="text-muted-foreground text-sm">Loading constituents…</p>;
  const weight = rows.length > 0 ? 100 / rows.length : 0;
  return (
    <section aria-labelledby={`${slug}-constituents`}>
      <h3 id={`${slug}-constituents`} className="mb-2 font-semibold">
        Constituents ({rows.length})
      </h3>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
        tabIndex={0}
        aria-label="Constituents table"
        // Laid out when the reader comes near it (decision 160); about a line per company meanwhile.
        className="render-near-view overflow-x-auto rounded-md border"
        style={{ '--near-view-height': `${rows.length * 2.5 + 3}rem` } as CSSProperties}
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Constituents, equal-weighted at each quarterly rebalance</caption>
          <thead className="bg-muted text-left text-xs">
            <tr>
              <th scope="col" className="px-3 py-2">
                Company
              </th>
              <th scope="col" className="px-3 py-2">
                Ticker
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Target weight
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Last close (USD)
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Change since previous close
              </th>
              <th scope="col" className="px-3 py-2">
                Source
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const change =
                row.lastClose !== null && row.previousClose
                  ? ((row.lastClose - row.previousClose) / row.previousClose) * 100
                  : null;
              return (
                <tr key={row.ticker} className="border-t">
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    {row.company} <span className="text-muted-foreground text-xs">{row.venue}</span>
                  </th>
                  <td className="px-3 py-1.5 font-mono text-xs">{row.ticker}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{weight.toFixed(2)}%</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">
                    {row.lastClose === null ? '—' : money(row.lastClose, 4)}
                    {row.lastDate ? (
                      <div className="text-muted-foreground text-xs">{row.lastDate}</div>
                    ) : null}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">
                    {change === null
                      ? '—'
                      : `${change > 0 ? '+' : change < 0 ? '−' : ''}${Math.abs(change).toFixed(2)}%`}
                  </td>
                  <td className="px-3 py-1.5 text-muted-foreground text-xs">
                    {row.source ?? 'No close imported yet'}
                    {row.isSample ? ' (demonstration)' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </section>
  );
}

/** The flower index's inputs: each state's series in its own unit and statistic, in USD per gram, with its source. */
export function FlowerStates({ slug }: { slug: string }) {
  const observations = useQuery(flowerObservationsQueryOptions());
  // As for the constituents: the table in an interruptible render.
  const rows = useDeferredValue(observations.data);
  if (observations.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        The state prices could not be loaded: {errorText(observations.error)}
      </p>
    );
  }
  if (rows === undefined) return <p className="text-muted-foreground text-sm">Loading state prices…</p>;
  const states = [...new Set(rows.map((row) => row.state))];
  const latest = states
    .map((state) => rows.filter((row) => row.state === state).at(-1))
    .filter((row) => row !== undefined);
  return (
    <div className="space-y-4">
      <section aria-labelledby="flower-states">
        <h3 id="flower-states" className="mb-2 font-semibold">
          States ({states.length})
        </h3>
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
          tabIndex={0}
          aria-label="States table"
          className="overflow-x-auto rounded-md border"
        >
          <table className="w-full text-sm">
            <caption className="sr-only">Each state's latest observation</caption>
            <thead className="bg-muted text-left text-xs">
              <tr>
                <th scope="col" className="px-3 py-2">
                  State
                </th>
                <th scope="col" className="px-3 py-2">
                  Series, statistic
                </th>
                <th scope="col" className="px-3 py-2">
                  Last observation
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Price
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  USD/g
                </th>
                <th scope="col" className="px-3 py-2">
                  Source
                </th>
              </tr>
            </thead>
            <tbody>
              {latest.map((row) => (
                <tr key={row.state} className="border-t">
                  <th scope="row" className="whitespace-nowrap px-3 py-1.5 text-left font-normal">
                    {row.state}
                  </th>
                  <td className="min-w-48 px-3 py-1.5 text-xs">
                    {row.series}, {row.statistic}
                  </td>
                  <td className="min-w-40 px-3 py-1.5 tabular-nums">
                    {row.period.slice(0, 7)}
                    {/* A state's own series is quarterly too: its last point older than a quarter is stale (decision 206). */}
                    {isStale('flower', row.period, todayUtc()) ? (
                      <StaleMarker text={staleText('flower', row.period, true)} />
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums">
                    {money(row.value)} {row.unit}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{money(row.usd_per_gram)}</td>
                  <td className="min-w-64 px-3 py-1.5 text-muted-foreground text-xs">
                    {observationLabel(row.state, row.source)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </section>
      <FlowerSeries slug={slug} observations={rows} />
      <details className="rounded-md border p-3">
        <summary className="cursor-pointer font-medium text-sm">
          Every state observation ({rows.length}), in its own unit and in USD per gram
        </summary>
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
          tabIndex={0}
          aria-label="Every observation table"
          className="mt-3 overflow-x-auto"
        >
          <table className="w-full text-sm">
            <caption className="sr-only">Every regulator price point the index is computed from</caption>
            <thead className="text-left text-xs">
              <tr>
                <th scope="col" className="px-2 py-1">
                  State
                </th>
                <th scope="col" className="px-2 py-1">
                  Period
                </th>
                <th scope="col" className="px-2 py-1 text-right">
                  Price
                </th>
                <th scope="col" className="px-2 py-1 text-right">
                  USD/g
                </th>
                <th scope="col" className="px-2 py-1">
                  Statistic
                </th>
                <th scope="col" className="px-2 py-1">
                  Source
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.state}-${row.period}`} className="border-t align-top">
                  <th scope="row" className="px-2 py-1 text-left font-normal">
                    {row.state}
                  </th>
                  <td className="px-2 py-1 tabular-nums">{row.period.slice(0, 7)}</td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                    {money(row.value)} {row.unit}
                  </td>
                  <td className="px-2 py-1 text-right tabular-nums">{formatValue(row.usd_per_gram)}</td>
                  <td className="px-2 py-1 text-xs">{row.statistic}</td>
                  <td className="min-w-64 px-2 py-1 text-muted-foreground text-xs">
                    {observationLabel(row.state, row.source)}
                    {row.note ? <div>Note: {row.note}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </div>
  );
}
