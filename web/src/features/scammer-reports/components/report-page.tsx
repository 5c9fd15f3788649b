import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, FileText, FileWarning, MessageSquareReply, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import {
  publishedEvidenceQueryOptions,
  publishedRepliesQueryOptions,
  RELATION_FOR_READERS,
} from '../api/evidence-and-replies.ts';
import {
  linkedReportsQueryOptions,
  type PublishedReport,
  publishedReportQueryOptions,
  reportUpdatesQueryOptions,
  withdrawalQueryOptions,
} from '../api/published-reports.ts';
import { formatAmount, formatDay, groupLinks, updatedLine } from '../database.ts';

/**
 * /scammer-database/:id (product §scammer-database): one published report, for members with access —
 * and for its brand's approved representatives, free (decision 201): when the database gives the
 * caller the report, the access gate is not shown.
 */
export function ReportPage({ id, guard }: { id: string; guard: (content: ReactNode) => ReactNode }) {
  const userId = useConfirmedUserId();
  const readable = useQuery(publishedReportQueryOptions(userId, id));
  // Its withdrawal notice, too, goes to whoever the database gives it (decision 202).
  const withdrawn = useQuery(withdrawalQueryOptions(userId, id));
  return (
    <PageContainer>
      <Button asChild variant="ghost" size="sm" className="mb-4">
        <Link to="/scammer-database">
          <ArrowLeft aria-hidden="true" />
          Back to the Scammer Network
        </Link>
      </Button>
      {readable.data || withdrawn.data ? <ReportDetail id={id} /> : guard(<ReportDetail id={id} />)}
    </PageContainer>
  );
}

function ReportDetail({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(publishedReportQueryOptions(userId, id));
  useDocumentTitle(query.data ? `${query.data.scammer_name} · Scammer Network` : 'Scammer Network');

  if (query.isPending) {
    return (
      <div aria-busy="true" className="grid gap-3">
        <span className="sr-only">Loading the report...</span>
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-40" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="text-destructive dark:text-red-400">
        {errorText(query.error)}
      </p>
    );
  }
  const report = query.data;
  if (!report) {
    return <NotShown id={id} />;
  }
  const redacted = new Set(report.redacted_fields);
  const hidden = (field: string, value: ReactNode) =>
    redacted.has(field) ? (
      <span className="text-muted-foreground italic">Removed by the reviewers</span>
    ) : (
      value
    );
  return (
    <article aria-label={`Report on ${report.scammer_name}`}>
      <PageHeader
        icon={ShieldAlert}
        eyebrow="Member report"
        title={report.scammer_name}
        description={<Attribution report={report} />}
      />
      {report.public_summary ? (
        <section
          aria-labelledby="summary-heading"
          className="mt-6 rounded-lg border-primary border-l-4 bg-primary/5 p-4"
          data-testid="reviewers-summary"
        >
          <h2 id="summary-heading" className="font-semibold">
            Summary by HighGrade's reviewers
          </h2>
          <p className="mt-1 whitespace-pre-line">{report.public_summary}</p>
        </section>
      ) : null}
      <section aria-labelledby="account-heading" className="mt-8 border-t pt-6" data-testid="members-account">
        <h2 id="account-heading" className="font-semibold text-lg">
          The member's account
        </h2>
        <p className="mt-1 text-muted-foreground text-sm">
          What follows is the member's account, reviewed for publication: it is not a finding by HighGrade.
        </p>
        <dl className="mt-6 grid gap-4 sm:grid-cols-2">
          <Fact label="Business name">{hidden('business_name', report.business_name ?? 'Not given')}</Fact>
          <Fact label="Location">{hidden('location', report.location ?? 'Not given')}</Fact>
          <Fact label="Amount">
            {hidden('amount_scammed', formatAmount(report.amount_scammed) ?? 'Not given')}
          </Fact>
          <Fact label="Date of incident">
            {hidden(
              'date_of_incident',
              report.date_of_incident ? formatDay(report.date_of_incident) : 'Not given',
            )}
          </Fact>
          <Fact label="Contact details">{hidden('contact_info', report.contact_info ?? 'Not given')}</Fact>
          <Fact label="Reported">{formatDay(report.reported_at)}</Fact>
        </dl>
        <section aria-labelledby="description-heading" className="mt-6">
          <h2 id="description-heading" className="font-semibold text-lg">
            Description
          </h2>
          <p className="mt-1 whitespace-pre-line">
            {hidden('scammer_description', report.scammer_description)}
          </p>
        </section>
        <section aria-labelledby="incident-heading" className="mt-6">
          <h2 id="incident-heading" className="font-semibold text-lg">
            The incident
          </h2>
          <p className="mt-1 whitespace-pre-line">{hidden('incident_details', report.incident_details)}</p>
        </section>
      </section>
      <Evidence id={report.id} />
      <LinkedReports id={report.id} />
      <Replies id={report.id} />
    </article>
  );
}

/**
 * "Reported by a member on DATE, reviewed on DATE." with "reviewed" linking to what it means, then
 * "Updated DATE: summary, masking, evidence." when readers' view of the report changed (decision 201).
 */
function Attribution({ report }: { report: PublishedReport }) {
  const userId = useConfirmedUserId();
  const updates = useQuery(reportUpdatesQueryOptions(userId, report.id));
  const updated = updates.data ? updatedLine(updates.data) : null;
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
      {updated ? (
        <span className="block" data-testid="report-updated">
          {updated}
        </span>
      ) : null}
    </>
  );
}

/** No report the reader may see: a dated notice when it was withdrawn (decision 202), else not found. */
function NotShown({ id }: { id: string }) {
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

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-muted-foreground text-xs uppercase tracking-wide">{label}</dt>
      <dd className="mt-1">{children}</dd>
    </div>
  );
}

/** Product §scammer-database "linked reports": other published reports sharing a contact identifier. */
function LinkedReports({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(linkedReportsQueryOptions(userId, id));
  return (
    <section aria-labelledby="linked-heading" className="mt-8">
      <h2 id="linked-heading" className="font-semibold text-lg">
        Linked reports
      </h2>
      {query.isPending ? (
        <Skeleton className="mt-2 h-12" />
      ) : query.isError ? (
        <p role="alert" className="mt-1 text-destructive dark:text-red-400">
          {errorText(query.error)}
        </p>
      ) : query.data.length === 0 ? (
        <p className="mt-1 text-muted-foreground">No other published report shares these contact details.</p>
      ) : (
        <ul className="mt-2 grid gap-2">
          {groupLinks(query.data).map(({ report, identifiers }) => (
            <li key={report.id} className="rounded-lg border p-3">
              <Link to={`/scammer-database/${report.id}`} className="font-medium hover:underline">
                {report.scammer_name}
              </Link>
              {report.business_name ? (
                <span className="text-muted-foreground"> · {report.business_name}</span>
              ) : null}
              <p className="text-muted-foreground text-sm">Shares: {identifiers.join(', ')}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Evidence an admin approved, through links that work for two minutes (decision 141). */
function Evidence({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(publishedEvidenceQueryOptions(userId, id));
  if (query.isSuccess && query.data.length === 0) return null;
  return (
    <section aria-labelledby="evidence-heading" className="mt-8">
      <h2 id="evidence-heading" className="font-semibold text-lg">
        Evidence
      </h2>
      <p className="text-muted-foreground text-sm">Files the reporter provided, checked by the reviewers.</p>
      {query.isPending ? (
        <Skeleton className="mt-2 h-24" />
      ) : query.isError ? (
        <p role="alert" className="mt-1 text-destructive dark:text-red-400">
          {errorText(query.error)}
        </p>
      ) : (
        <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {query.data.map((file, index) => (
            <li key={file.id} className="overflow-hidden rounded-lg border">
              {file.url === null ? (
                <p className="p-3 text-muted-foreground text-sm">This file is not available.</p>
              ) : file.content_type === 'application/pdf' ? (
                <a
                  href={file.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="flex items-center gap-2 p-3 hover:underline"
                >
                  <FileText aria-hidden="true" className="size-5" />
                  Evidence {index + 1} (PDF)
                </a>
              ) : (
                <a href={file.url} target="_blank" rel="noreferrer noopener">
                  <img
                    src={file.url}
                    alt={`Evidence ${index + 1}`}
                    loading="lazy"
                    className="aspect-square w-full object-cover"
                  />
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Accepted replies and corrections from the people named, and the way to send one (decision 126). */
function Replies({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(publishedRepliesQueryOptions(userId, id));
  return (
    <section aria-labelledby="replies-heading" className="mt-8">
      <h2 id="replies-heading" className="font-semibold text-lg">
        Replies from the people named
      </h2>
      {query.isPending ? (
        <Skeleton className="mt-2 h-12" />
      ) : query.isError ? (
        <p role="alert" className="mt-1 text-destructive dark:text-red-400">
          {errorText(query.error)}
        </p>
      ) : query.data.length === 0 ? (
        <p className="mt-1 text-muted-foreground">No reply has been published.</p>
      ) : (
        <ul className="mt-2 grid gap-3">
          {query.data.map((reply) => (
            <li key={reply.id} className="rounded-lg border bg-card p-4">
              <p className="font-medium text-sm">
                {reply.kind === 'correction' ? 'Correction' : 'Reply'} from{' '}
                {RELATION_FOR_READERS[reply.relation]}, published {formatDay(reply.published_at)}
              </p>
              <p className="mt-1 whitespace-pre-line">{reply.body}</p>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 text-sm">
        <MessageSquareReply aria-hidden="true" className="mr-1 inline size-4" />
        Named in this report?{' '}
        <Link to={`/scammer-database/${id}/reply`} className="font-medium underline">
          Send a reply, a correction or a takedown request
        </Link>
      </p>
    </section>
  );
}
