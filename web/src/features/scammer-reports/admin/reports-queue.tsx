import { useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { PagedList } from '#web/components/ui/paged-table.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { formatDay } from '../database.ts';
import { statusLabel } from '../report.ts';
import { adminReportsQueryOptions, type QueueView } from './api/get-admin-reports.ts';
import { RepliesQueue } from './replies-queue.tsx';

const VIEWS: readonly [QueueView | 'replies', string][] = [
  ['queue', 'To review'],
  ['published', 'Published'],
  ['rejected', 'Rejected'],
  ['replies', 'Replies'],
];

/** The queue, oldest first (issue 19), and the reports already decided. */
export function ReportsQueue() {
  const [params, setParams] = useSearchParams();
  const view = VIEWS.find(([key]) => key === params.get('view'))?.[0] ?? 'queue';
  return (
    <div className="grid gap-4">
      <nav aria-label="Report lists" className="flex flex-wrap gap-2">
        {VIEWS.map(([key, label]) => (
          <Button
            key={key}
            size="sm"
            variant={view === key ? 'default' : 'outline'}
            aria-pressed={view === key}
            onClick={() => setParams(key === 'queue' ? {} : { view: key }, { replace: true })}
          >
            {label}
          </Button>
        ))}
      </nav>
      {view === 'replies' ? <RepliesQueue /> : <ReportList view={view} />}
    </div>
  );
}

/** Placeholders of two queue rows. */
const QUEUE_LOADING = (
  <>
    <Skeleton className="h-16" />
    <Skeleton className="h-16" />
  </>
);

/** One of the report lists (the newest 100), with its loading, error and empty states. */
function ReportList({ view }: { view: QueueView }) {
  const list = useQuery(adminReportsQueryOptions(view));
  const { user } = useAuth();
  return (
    <PagedList
      what="reports"
      query={list}
      loading={QUEUE_LOADING}
      empty={
        <EmptyState
          icon={Inbox}
          title={view === 'queue' ? 'Nothing to review' : 'No reports here yet'}
          headingLevel={3}
        >
          {view === 'queue' ? 'New reports appear here, oldest first.' : 'Reports appear here once decided.'}
        </EmptyState>
      }
    >
      {(reports) => (
        <ul className="grid gap-2" aria-label={VIEWS.find(([key]) => key === view)?.[1]}>
          {reports.map((report) => (
            <li
              key={report.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3"
            >
              <div className="min-w-0">
                <Link to={`/admin/reports/${report.id}`} className="font-medium hover:underline">
                  {report.scammer_name}
                </Link>
                <p className="text-muted-foreground text-xs">
                  Submitted {formatDay(report.created_at)}
                  {report.claimed_by
                    ? report.claimed_by === user?.id
                      ? ' · claimed by you'
                      : ' · claimed'
                    : ''}
                </p>
              </div>
              <Badge variant={report.status === 'rejected' ? 'destructive' : 'outline'}>
                {statusLabel(report.status)}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </PagedList>
  );
}
