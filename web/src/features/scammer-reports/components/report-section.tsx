import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { QueryError } from './query-error.tsx';

/**
 * A part of a published report's page under its own heading, read on its own: a placeholder while it
 * loads, the reason when it fails, `empty` when there is nothing, else its rows.
 */
export function ReportSection<Row>({
  name,
  title,
  intro,
  query,
  placeholder,
  empty,
  footer,
  children,
}: {
  /** The heading's id is `<name>-heading`. */
  name: string;
  title: string;
  intro?: ReactNode;
  query: UseQueryResult<Row[]>;
  /** The placeholder's height, e.g. "h-12". */
  placeholder: string;
  empty?: string;
  footer?: ReactNode;
  children: (rows: Row[]) => ReactNode;
}) {
  return (
    <section aria-labelledby={`${name}-heading`} className="mt-8">
      <h2 id={`${name}-heading`} className="font-semibold text-lg">
        {title}
      </h2>
      {intro}
      {query.isPending ? (
        <Skeleton className={`mt-2 ${placeholder}`} />
      ) : query.isError ? (
        <QueryError error={query.error} className="mt-1" />
      ) : query.data.length === 0 && empty !== undefined ? (
        <p className="mt-1 text-muted-foreground">{empty}</p>
      ) : (
        children(query.data)
      )}
      {footer}
    </section>
  );
}
