import { FileText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge, type BadgeProps } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { getMyReports, type MyReport } from '../api/get-my-reports.ts';
import { statusLabel } from '../report.ts';

const VARIANTS: Record<string, BadgeProps['variant']> = {
  submitted: 'secondary',
  under_review: 'outline',
  published: 'default',
  rejected: 'destructive',
};
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; reports: MyReport[] };

/** The member's own reports with their status, newest first; reloaded each time it is shown. */
export function MyReports({ userId }: { userId: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let current = true;
    getMyReports(userId).then(
      (reports) => current && setState({ kind: 'loaded', reports }),
      (error: unknown) => current && setState({ kind: 'error', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [userId]);

  if (state.kind === 'loading') {
    return (
      <div aria-busy="true" className="grid gap-2">
        <span className="sr-only">Loading your reports...</span>
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
    );
  }
  if (state.kind === 'error') {
    return (
      <p role="alert" className="text-destructive text-sm dark:text-red-400">
        {state.message}
      </p>
    );
  }
  if (state.reports.length === 0) {
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
      {state.reports.map((report) => (
        <li key={report.id} className="flex items-center justify-between gap-3 rounded-lg border p-3">
          <div className="min-w-0">
            <p className="truncate font-medium">{report.scammer_name}</p>
            <p className="text-muted-foreground text-xs">
              {report.business_name ? `${report.business_name} · ` : ''}
              Submitted {dateFormat.format(new Date(report.created_at))}
            </p>
          </div>
          <Badge variant={VARIANTS[report.status] ?? 'outline'}>{statusLabel(report.status)}</Badge>
        </li>
      ))}
    </ul>
  );
}
