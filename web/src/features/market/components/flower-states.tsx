import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import { formatFixed } from '#web/lib/format.ts';
import { type FlowerObservation, flowerObservationsQueryOptions } from '../api/get-flower-observations.ts';
import { formatValue, isStale, observationLabel, staleText, todayUtc } from '../market-data.ts';
import { FlowerSeries } from './flower-series.tsx';
import { StaleMarker } from './stale-marker.tsx';
import { type Column, ScrollRegion, TableHead } from './table-parts.tsx';

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
  return (
    <div className="space-y-4">
      <StatesTable rows={rows} />
      <FlowerSeries slug={slug} observations={rows} />
      <details className="rounded-md border p-3">
        <summary className="cursor-pointer font-medium text-sm">
          Every state observation ({rows.length}), in its own unit and in USD per gram
        </summary>
        <ObservationsTable rows={rows} />
      </details>
    </div>
  );
}

const STATE_COLUMNS: readonly Column[] = [
  { label: 'State' },
  { label: 'Series, statistic' },
  { label: 'Last observation' },
  { label: 'Price', right: true },
  { label: 'USD/g', right: true },
  { label: 'Source' },
];

/** Each state's latest observation. */
function StatesTable({ rows }: { rows: readonly FlowerObservation[] }) {
  const states = [...new Set(rows.map((row) => row.state))];
  const latest = states
    .map((state) => rows.filter((row) => row.state === state).at(-1))
    .filter((row) => row !== undefined);
  return (
    <section aria-labelledby="flower-states">
      <h3 id="flower-states" className="mb-2 font-semibold">
        States ({states.length})
      </h3>
      <ScrollRegion label="States table" className="overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <caption className="sr-only">Each state's latest observation</caption>
          <TableHead columns={STATE_COLUMNS} className="bg-muted" />
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
                  {formatFixed(row.value, 2)} {row.unit}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatFixed(row.usd_per_gram, 2)}</td>
                <td className="min-w-64 px-3 py-1.5 text-muted-foreground text-xs">
                  {observationLabel(row.state, row.source)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

const OBSERVATION_COLUMNS: readonly Column[] = [
  { label: 'State' },
  { label: 'Period' },
  { label: 'Price', right: true },
  { label: 'USD/g', right: true },
  { label: 'Statistic' },
  { label: 'Source' },
];

/** Every regulator price point the index is computed from. */
function ObservationsTable({ rows }: { rows: readonly FlowerObservation[] }) {
  return (
    <ScrollRegion label="Every observation table" className="mt-3 overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Every regulator price point the index is computed from</caption>
        <TableHead columns={OBSERVATION_COLUMNS} cellClassName="px-2 py-1" />
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.state}-${row.period}`} className="border-t align-top">
              <th scope="row" className="px-2 py-1 text-left font-normal">
                {row.state}
              </th>
              <td className="px-2 py-1 tabular-nums">{row.period.slice(0, 7)}</td>
              <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                {formatFixed(row.value, 2)} {row.unit}
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
    </ScrollRegion>
  );
}
