import type { LucideIcon } from 'lucide-react';
import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { cn } from '#web/lib/utils.ts';

/** A sample item says so, to eyes and to screen readers, as on its own page (product §samples). */
export function SampleLabel({ what }: { what: string }) {
  return (
    <Badge variant="outline" className="shrink-0 border-amber-500 text-amber-700 dark:text-amber-300">
      Sample
      <span className="sr-only"> — {what}</span>
    </Badge>
  );
}

export interface SectionQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * One home section: its heading and a link to its page, then a box of a fixed size (`boxClassName`)
 * that holds the placeholders while loading, the items, the empty state or the error — so nothing
 * below it moves when the data arrive (no layout shift).
 */
export function HomeSection({
  id,
  title,
  link,
  linkLabel,
  icon: Icon,
  query,
  isEmpty,
  empty,
  skeleton,
  boxClassName,
  heightEstimate,
  children,
}: {
  id: string;
  title: string;
  link: string;
  linkLabel: string;
  icon: LucideIcon;
  query: SectionQuery;
  isEmpty: boolean;
  empty: ReactNode;
  skeleton: ReactNode;
  boxClassName: string;
  /** The section's usual height (`--near-view-height`), reserved while it is below the fold. */
  heightEstimate: string;
  children: ReactNode;
}) {
  const titleId = `home-${id}-title`;
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div role="status" className="flex-1">
        <span className="sr-only">Loading {title.toLowerCase()}…</span>
        {skeleton}
      </div>
    );
  } else if (query.isError) {
    body = (
      <div role="alert" className="flex flex-1 flex-col items-start justify-center rounded-xl border p-6">
        <p className="font-medium">{title} could not be loaded.</p>
        <p className="mt-1 text-muted-foreground text-sm">{errorText(query.error)}</p>
        <Button className="mt-4" variant="outline" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (isEmpty) {
    body = (
      <div className="flex flex-1 flex-col items-center justify-center rounded-xl border border-dashed bg-card/50 p-6 text-center">
        <Icon aria-hidden="true" className="size-8 text-primary" />
        <div className="mt-3 max-w-md text-muted-foreground">{empty}</div>
      </div>
    );
  } else {
    body = children;
  }
  return (
    <section
      aria-labelledby={titleId}
      className={cn('render-near-view mt-14', heightEstimate)}
      data-testid={`home-${id}`}
    >
      <div className="flex items-end justify-between gap-4">
        <h2 id={titleId} className="flex items-center gap-2 font-bold text-2xl tracking-tight">
          <Icon aria-hidden="true" className="size-6 text-primary" />
          {title}
        </h2>
        <Link
          to={link}
          className="inline-flex shrink-0 items-center gap-1 font-medium text-primary text-sm hover:underline"
        >
          {linkLabel}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      <div className={cn('mt-6 flex flex-col', boxClassName)}>{body}</div>
    </section>
  );
}

export function Slots({
  count,
  className,
  itemClassName,
}: {
  count: number;
  className: string;
  itemClassName: string;
}) {
  return (
    <div className={className}>
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <Skeleton key={index} className={itemClassName} />
      ))}
    </div>
  );
}
