import { Clock } from 'lucide-react';

/**
 * A value older than its series' normal interval (decision 206): said in words, wherever the value is
 * shown, so a reader does not take an old figure for today's.
 */
export function StaleMarker({ text }: { text: string }) {
  return (
    <p
      data-testid="stale-marker"
      className="mt-1 inline-flex items-start gap-1 rounded-md border border-amber-600/60 bg-amber-500/10 px-2 py-0.5 text-amber-900 text-xs dark:text-amber-200"
    >
      <Clock aria-hidden="true" className="mt-0.5 size-3 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
