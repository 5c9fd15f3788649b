import { useQuery } from '@tanstack/react-query';
import { errorText } from '#web/lib/error-text.ts';
import { formatFixed } from '#web/lib/format.ts';
import type { FlowerObservation } from '../api/get-flower-observations.ts';
import { pointsQueryOptions } from '../api/get-points.ts';
import { formatValue, observationLabel } from '../market-data.ts';
import { ScrollRegion, TableHead } from './table-parts.tsx';

/** "2026 Q1" for a date. */
export function quarterOf(date: string): string {
  const month = Number(date.slice(5, 7));
  return `${date.slice(0, 4)} Q${Math.ceil(month / 3)}`;
}

export interface SeriesRow {
  quarter: string;
  composite: number | null;
  /** Per state: the quarter's latest observation, as the index takes it (decision 205). */
  states: Map<string, FlowerObservation>;
}

/** The composite and each state's quarterly point side by side, newest quarter first. */
export function seriesRows(
  composite: readonly { date: string; value: number }[],
  observations: readonly FlowerObservation[],
): SeriesRow[] {
  const rows = new Map<string, SeriesRow>();
  const rowOf = (quarter: string) => {
    let row = rows.get(quarter);
    if (!row) {
      row = { quarter, composite: null, states: new Map() };
      rows.set(quarter, row);
    }
    return row;
  };
  for (const point of composite) rowOf(quarterOf(point.date)).composite = point.value;
  for (const observation of observations) {
    const row = rowOf(quarterOf(observation.period));
    const kept = row.states.get(observation.state);
    if (!kept || kept.period < observation.period) row.states.set(observation.state, observation);
  }
  return [...rows.values()].sort((a, b) => (a.quarter < b.quarter ? 1 : -1));
}

/**
 * The per-state series beside the composite (issue 35, decision 206): one column per state, each in its
 * own unit and statistic (never converted, never compared across states), the composite first.
 */
export function FlowerSeries({ slug, observations }: { slug: string; observations: FlowerObservation[] }) {
  const composite = useQuery(pointsQueryOptions(slug, 'All'));
  if (composite.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        The composite could not be loaded: {errorText(composite.error)}
      </p>
    );
  }
  if (composite.data === undefined) {
    return <p className="text-muted-foreground text-sm">Loading the series by state…</p>;
  }
  const states = [...new Set(observations.map((row) => row.state))];
  const units = new Map(observations.map((row) => [row.state, row.unit]));
  const rows = seriesRows(composite.data, observations);
  return (
    <section aria-labelledby={`${slug}-series`}>
      <h3 id={`${slug}-series`} className="mb-1 font-semibold">
        The composite and each state's own series
      </h3>
      <p className="mb-2 text-muted-foreground text-xs">
        Per quarter, each state's latest point in its own unit and statistic (the point the index uses).
        Prices of different states are never compared with each other; each moves the index only relative to
        its own previous point.
      </p>
      <ScrollRegion label="Series by state table" className="max-h-96 overflow-auto rounded-md border">
        <table className="w-full min-w-max text-sm" data-testid="flower-series">
          <caption className="sr-only">The composite and each state's quarterly series, newest first</caption>
          <TableHead
            className="sticky top-0 bg-muted"
            columns={[
              { label: 'Quarter' },
              { label: 'Composite', right: true },
              ...states.map((state) => ({
                key: state,
                label: `${state}, ${units.get(state) ?? ''}`,
                right: true,
              })),
            ]}
          />
          <tbody>
            {rows.map((row) => (
              <tr key={row.quarter} className="border-t align-top" data-quarter={row.quarter}>
                <th scope="row" className="whitespace-nowrap px-3 py-1.5 text-left font-normal tabular-nums">
                  {row.quarter}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {row.composite === null ? '—' : formatValue(row.composite)}
                </td>
                {states.map((state) => {
                  const point = row.states.get(state);
                  return (
                    <td
                      key={state}
                      className="px-3 py-1.5 text-right tabular-nums"
                      title={point ? observationLabel(point.state, point.source) : undefined}
                    >
                      {point ? (
                        <>
                          {formatFixed(point.value, 2)}
                          <span className="block text-muted-foreground text-xs">
                            {point.statistic}, {point.period.slice(0, 7)}
                          </span>
                        </>
                      ) : (
                        <span className="text-muted-foreground">—</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
