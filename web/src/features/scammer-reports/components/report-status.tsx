import { useQuery } from '@tanstack/react-query';
import { FileWarning } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import type { PublishedReport } from '../api/get-published-report.ts';
import { reportUpdatesQueryOptions } from '../api/get-report-updates.ts';
import { withdrawalQueryOptions } from '../api/get-withdrawal.ts';
import { formatDay, updatedLine } from '../database.ts';

/** "Reported by a member on DATE, reviewed on DATE." with "reviewed" linking to what it means. */
export function ReportedLine({ report }: { report: Pick<PublishedReport, 'reported_at' | 'reviewed_at'> }) {
  return (
    <>
      Reported by a member on {formatDay(report.reported_at)}
      {report.reviewed_at ? (
        <>
          ,{' '}
          <Link to="/how-reports-are-reviewed" className="underline underline-offset-4">
            reviewed on {formatDay(report.reviewed_at)}
          </Link>
        </>
      ) : null}
      .
    </>
  );
}

/**
 * The reported line, then "Updated DATE: summary, masking, evidence." when readers' view of the report
 * changed (decision 201).
 */
export function Attribution({ report }: { report: PublishedReport }) {
  const userId = useConfirmedUserId();
  const updates = useQuery(reportUpdatesQueryOptions(userId, report.id));
  const updated = updates.data ? updatedLine(updates.data) : null;
  return (
    <>
      <ReportedLine report={report} />
      {updated ? (
        <span className="block" data-testid="report-updated">
          {updated}
        </span>
      ) : null}
    </>
  );
}

/** No report the reader may see: a dated notice when it was withdrawn (decision 202), else not found. */
export function NotShown({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const withdrawal = useQuery(withdrawalQueryOptions(userId, id));
  if (withdrawal.isPending) {
    return <Skeleton className="h-24" aria-label="Loading the report" />;
  }
  if (withdrawal.data) {
    return (
      <EmptyState icon={FileWarning} title="This report was withdrawn">
        <span data-testid="withdrawn-notice">
          This report was withdrawn on {formatDay(withdrawal.data)} after review. Its content is no longer
          shown.{' '}
          <Link to="/how-reports-are-reviewed#corrections" className="font-medium underline">
            How corrections and takedowns work
          </Link>
        </span>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={FileWarning} title="Report not found">
      This report does not exist or is not published.
    </EmptyState>
  );
}
