import { Download } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import type { MarketIndex } from '../api/get-indices.ts';
import { type IndexPoint, pointsCsv, RANGES, type RangeKey } from '../market-data.ts';

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An index's range buttons, its CSV download (the points shown) and the link to its methodology. */
export function IndexActions({
  index,
  range,
  points,
  onRangeChange,
}: {
  index: MarketIndex;
  range: RangeKey;
  points: readonly IndexPoint[];
  onRangeChange: (range: RangeKey) => void;
}) {
  return (
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
          disabled={points.length === 0}
          onClick={() => download(`${index.slug}-${range}.csv`, pointsCsv(index.slug, points))}
        >
          <Download aria-hidden="true" className="size-4" />
          Download CSV
        </Button>
        <Button size="sm" variant="ghost" asChild>
          <Link to={`/market-index/${index.slug}/methodology`}>Methodology</Link>
        </Button>
      </div>
    </div>
  );
}
