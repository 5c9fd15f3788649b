import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { Badge, type BadgeProps } from '#web/components/ui/badge.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { myReportsQueryOptions } from '../api/get-my-reports.ts';
import { statusLabel } from '../report.ts';
import { QueryError } from './query-error.tsx';

const VARIANTS: Record<string, BadgeProps['variant']> = {
  submitted: 'secondary',
  under_review: 'outline',
  published: 'default',
  rejected: 'destructive',
};
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The member's own reports with their status, newest first; reloaded each time it is shown. */
export function MyReports({ userId }: { userId: string }) {
  const query = useQuery(myReportsQueryOptions(userId));

  if (query.isPending) {
    return (
      <div aria-busy="true" className="grid gap-2">
        <span className="sr-only">Loading your reports...</span>
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
    );
  }
  if (query.isError) {
    return <QueryError error={query.error} className="text-sm" />;
  }
  if (query.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center">
        <FileText aria-hidden="true" className="size-8 text-muted-foreground" />
        <p className="font-medium">No reports yet</p>
        <p className="text-muted-foreground text-sm">
          Reports you submit appear here with their review status.
        </p>
      </div>
    );
  }
  return (
    <ul aria-label="My reports" className="grid gap-2">
      {query.data.map((report) => (
        <li key={report.id} className="grid gap-2 rounded-lg border p-3">
          <div className="flex items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate font-medium">{report.scammer_name}</p>
              <p className="text-muted-foreground text-xs">
                {report.business_name ? `${report.business_name} · ` : ''}
                Submitted {dateFormat.format(new Date(report.created_at))}
              </p>
            </div>
            <Badge variant={VARIANTS[report.status] ?? 'outline'}>{statusLabel(report.status)}</Badge>
          </div>
          {report.status === 'rejected' && report.rejection_reason ? (
            <p className="text-sm">
              <span className="font-medium">Reason: </span>
              {report.rejection_reason}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
