import type { VoteDay } from '../api/get-product.ts';

/**
 * Counted votes over time: running totals of Gas and Pass by day, as a small SVG (no chart library:
 * two polylines need none). The table beside it carries the same numbers for screen readers.
 */
export function VoteChart({ days }: { days: VoteDay[] }) {
  if (days.length === 0) {
    return (
      <p className="text-muted-foreground text-sm">No counted votes yet, so there is nothing to chart.</p>
    );
  }
  let gas = 0;
  let pass = 0;
  const points = days.map((day) => {
    gas += day.gas;
    pass += day.pass;
    return { day: day.day, gas, pass };
  });
  const width = 320;
  const height = 120;
  const max = Math.max(1, ...points.map((p) => Math.max(p.gas, p.pass)));
  const x = (index: number) =>
    points.length === 1 ? width / 2 : (index / (points.length - 1)) * (width - 8) + 4;
  const y = (value: number) => height - 4 - (value / max) * (height - 8);
  const line = (key: 'gas' | 'pass') => points.map((p, index) => `${x(index)},${y(p[key])}`).join(' ');
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <figure className="grid gap-2">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-32 w-full"
        role="img"
        aria-label={`Counted votes over time: from ${first?.day} to ${last?.day}, ${last?.gas} Gas and ${last?.pass} Pass in total.`}
      >
        <polyline points={line('gas')} fill="none" className="stroke-primary" strokeWidth="2.5" />
        <polyline
          points={line('pass')}
          fill="none"
          className="stroke-muted-foreground"
          strokeWidth="2"
          strokeDasharray="5 3"
        />
      </svg>
      <figcaption className="flex justify-between text-muted-foreground text-xs">
        <span>{first?.day}</span>
        <span>
          <span className="font-medium text-primary">— Gas</span> · <span>- - Pass</span> (running totals)
        </span>
        <span>{last?.day}</span>
      </figcaption>
    </figure>
  );
}
