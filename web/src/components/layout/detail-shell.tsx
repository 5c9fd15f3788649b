import { ArrowLeft } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { QueryState, type QueryStatus } from '#web/components/layout/list-states.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';

/**
 * The admin screens' frames (issue 38 part 2): a section (its heading, what it is for, then its list or
 * record), and one record's page (a booking, a member, a post, a report): the way back to its list, the
 * loading and error states, "not found", then the record's own sections.
 */

/** A section of a dashboard: an h2 named by `id`, a line saying what it is for, then its content. */
export function SectionShell({
  id,
  title,
  description,
  children,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <div>
        <h2 id={id} className="font-semibold text-xl">
          {title}
        </h2>
        <p className="mt-1 text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}

/** The way back to the list: a path relative to this page's (".." plus the list's filters), or absolute. */
export interface BackLink {
  to: string;
  label: string;
}

export function DetailFrame({ back, children }: { back: BackLink; children: ReactNode }) {
  return (
    <div className="grid gap-5">
      <div>
        <Button asChild variant="ghost" className="-ml-3">
          <Link to={back.to} relative="path">
            <ArrowLeft aria-hidden="true" />
            {back.label}
          </Link>
        </Button>
      </div>
      {children}
    </div>
  );
}

const DETAIL_LOADING = (
  <>
    <Skeleton className="h-8 w-72" />
    <Skeleton className="h-64 w-full" />
  </>
);

interface DetailStateProps<T> {
  /** As in "Loading the <what>…" and "The <what> could not be loaded." */
  what: string;
  /** The record's query: null when there is no record with this id. */
  query: QueryStatus & { data: T | null | undefined };
  /** Said when there is none: an EmptyState at the page's heading level. */
  notFound: ReactNode;
  /** Placeholders of the page's size; default: a title and a block. */
  loading?: ReactNode;
  children: (record: T) => ReactNode;
}

/** The record once loaded; its loading and error states, or "not found", before that. */
export function DetailState<T>({ what, query, notFound, loading, children }: DetailStateProps<T>): ReactNode {
  if (query.isPending || query.isError || query.data === undefined) {
    return <QueryState what={what} query={query} loading={loading ?? DETAIL_LOADING} />;
  }
  if (query.data === null) return notFound;
  return children(query.data);
}

/** DetailFrame around DetailState: a record's whole admin page. */
export function DetailShell<T>({ back, ...state }: DetailStateProps<T> & { back: BackLink }) {
  return (
    <DetailFrame back={back}>
      <DetailState {...state} />
    </DetailFrame>
  );
}

/** One fact of the record in a <dl>: its label, and the value or "—" when there is none. */
export function DetailField({ label, value }: { label: string; value: string | number | null }) {
  return (
    <div>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-wrap">{value === null || value === '' ? '—' : value}</dd>
    </div>
  );
}

/**
 * An action on the record (confirmed before), said done in a toast; a failure is said twice: as a toast,
 * and in `problem` (an alert to show beside the buttons) until the next attempt.
 */
export function useRecordAction(): {
  run: (action: () => Promise<unknown>, done: string) => Promise<void>;
  problem: ReactNode;
} {
  const [problem, setProblem] = useState<string | null>(null);
  const run = (action: () => Promise<unknown>, done: string) => {
    setProblem(null);
    return action().then(
      () => {
        toast({ title: done });
      },
      (error: unknown) => {
        setProblem(errorText(error));
        toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
      },
    );
  };
  return {
    run,
    problem: problem ? (
      <p role="alert" className="rounded-md border border-destructive/40 p-3 text-destructive text-sm">
        {problem}
      </p>
    ) : null,
  };
}
