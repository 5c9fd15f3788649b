import { History } from 'lucide-react';
import { useRef, useState } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import type { MarketIndex } from '../api/get-indices.ts';
import type { PointRevision } from '../api/get-point-revisions.ts';
import { formatValue, type IndexPoint, type RangeKey } from '../market-data.ts';
import { type Column, ScrollRegion, TableHead } from './table-parts.tsx';

const COLUMNS: readonly Column[] = [
  { label: 'Date' },
  { label: 'Value', right: true },
  { label: 'Source' },
  { label: 'As of' },
  { label: 'Revision' },
];

/**
 * Rows the values table renders at first. Its box shows about nine; a year of daily values is 260 rows,
 * whose style and layout were the page's longest task (decision 160). The rest on request, and in the
 * CSV download.
 */
const FIRST_ROWS = 40;

export function PointsTable({
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
  revisions: readonly PointRevision[];
}) {
  const byDate = new Map<string, PointRevision[]>();
  for (const revision of revisions)
    byDate.set(revision.date, [...(byDate.get(revision.date) ?? []), revision]);
  const [showAll, setShowAll] = useState(false);
  const box = useRef<HTMLElement>(null);
  const rows = [...points].reverse();
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  const hidden = rows.length - shown.length;
  return (
    <ScrollRegion
      ref={box}
      label={`${index.name}: values`}
      className="render-near-view max-h-80 overflow-auto rounded-md border [--near-view-height:20rem] focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className="w-full text-sm" data-testid="points-table" data-range={range}>
        <caption className="px-3 py-2 text-left text-muted-foreground text-xs">
          {points.length} values, newest first
          {hidden > 0 ? ` (the newest ${shown.length} shown)` : ''}
          {demo ? ' — demonstration series, generated, not market data' : ''}. Carried values repeat an
          earlier input and are marked.
        </caption>
        <TableHead columns={COLUMNS} className="sticky top-0 bg-muted" />
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
    </ScrollRegion>
  );
}
