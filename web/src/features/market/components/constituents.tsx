import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useDeferredValue } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import { formatFixed } from '#web/lib/format.ts';
import { constituentsQueryOptions } from '../api/get-constituents.ts';
import { type Column, ScrollRegion, TableHead } from './table-parts.tsx';

const COLUMNS: readonly Column[] = [
  { label: 'Company' },
  { label: 'Ticker' },
  { label: 'Target weight', right: true },
  { label: 'Last close (USD)', right: true },
  { label: 'Change since previous close', right: true },
  { label: 'Source' },
];

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
      <ScrollRegion
        label="Constituents table"
        // Laid out when the reader comes near it (decision 160); about a line per company meanwhile.
        className="render-near-view overflow-x-auto rounded-md border"
        style={{ '--near-view-height': `${rows.length * 2.5 + 3}rem` } as CSSProperties}
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Constituents, equal-weighted at each quarterly rebalance</caption>
          <TableHead columns={COLUMNS} className="bg-muted" />
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
                    {row.lastClose === null ? '—' : formatFixed(row.lastClose, 4)}
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
      </ScrollRegion>
    </section>
  );
}
