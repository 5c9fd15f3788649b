import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { publishedReportQueryOptions } from '../api/get-published-report.ts';
import { withdrawalQueryOptions } from '../api/get-withdrawal.ts';
import { formatAmount, formatDay } from '../database.ts';
import { LinkedReports } from './linked-reports.tsx';
import { PublishedReplies } from './published-replies.tsx';
import { QueryError } from './query-error.tsx';
import { ReportEvidence } from './report-evidence.tsx';
import { Attribution, NotShown } from './report-status.tsx';

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
    return <QueryError error={query.error} />;
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
      <ReportEvidence id={report.id} />
      <LinkedReports id={report.id} />
      <PublishedReplies id={report.id} />
    </article>
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
