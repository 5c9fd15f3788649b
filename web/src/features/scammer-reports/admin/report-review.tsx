import { useQuery } from '@tanstack/react-query';
import { FileWarning } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { DetailShell } from '#web/components/layout/detail-shell.tsx';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { formatDay, type RedactableField } from '../database.ts';
import { statusLabel } from '../report.ts';
import type { AdminReport } from './admin-report.ts';
import { adminReportQueryOptions } from './api/get-admin-report.ts';
import { masksQueryOptions } from './api/get-masks.ts';
import { BrandLink } from './brand-link.tsx';
import { EvidenceReview } from './evidence-review.tsx';
import { MergeDuplicate } from './merge-duplicate.tsx';
import { PublicVersionForm } from './public-version-form.tsx';
import { RejectForm } from './reject-form.tsx';
import { ReportFacts } from './report-facts.tsx';
import { MaskedFieldText, MaskReview } from './review-masks.tsx';
import { useReviewStep } from './review-step.ts';

/** /admin/reports/<id>: one report under review. */
export function ReportReview() {
  const { id = '' } = useParams();
  const query = useQuery(adminReportQueryOptions(id));
  return (
    <DetailShell
      back={{ to: '/admin/reports', label: 'Back to the queue' }}
      what="report"
      query={query}
      notFound={
        <EmptyState icon={FileWarning} title="Report not found" headingLevel={3}>
          It may have been deleted.
        </EmptyState>
      }
    >
      {(report) => <ReviewForm key={`${report.id}-${report.status}`} report={report} />}
    </DetailShell>
  );
}

/** The report, then the review steps its state allows; the member who filed it never reviews it. */
function ReviewForm({ report }: { report: AdminReport }) {
  const { user } = useAuth();
  const step = useReviewStep(report.id);
  const [redacted, setRedacted] = useState<Set<RedactableField>>(new Set(report.redacted_fields));
  const decided = report.status === 'rejected';
  // Decision 195: the member who filed a report never reviews it, admins included (the database
  // refuses it too).
  const own = report.reporter_user_id === user?.id;
  const reviewing = (report.status === 'under_review' || report.status === 'published') && !own;
  // Decision 197: masked spans of the text; the database proposes some, the reviewer decides.
  const masksQuery = useQuery({ ...masksQueryOptions(report.id), enabled: !own });
  const masks = masksQuery.data ?? [];

  return (
    <article aria-labelledby="review-title" className="grid gap-5">
      <header className="flex flex-wrap items-center gap-3">
        <h3 id="review-title" className="font-semibold text-2xl">
          <MaskedFieldText text={report.scammer_name} masks={masks} field="scammer_name" />
        </h3>
        <Badge variant={report.status === 'rejected' ? 'destructive' : 'outline'}>
          {statusLabel(report.status)}
        </Badge>
      </header>
      <p className="text-muted-foreground text-sm">
        Submitted {formatDay(report.created_at)}
        {report.claimed_by
          ? ` · claimed ${report.claimed_by === user?.id ? 'by you' : 'by another admin'}`
          : ''}
        {report.reviewed_at ? ` · reviewed ${formatDay(report.reviewed_at)}` : ''}
      </p>
      {report.rejection_reason ? (
        <p className="rounded-lg border border-destructive/50 p-3">
          <span className="font-medium">Rejection reason: </span>
          {report.rejection_reason}
        </p>
      ) : null}
      <ReportFacts report={report} masks={masks} redacted={redacted} />
      {own && !decided ? (
        <p role="note" className="rounded-lg border p-3" data-testid="own-report">
          You filed this report, so another admin reviews, redacts and publishes it.
        </p>
      ) : null}
      {reviewing ? (
        <MaskReview report={report} masks={masks} pending={masksQuery.isPending} failed={masksQuery.error} />
      ) : null}
      {report.status === 'submitted' && !own ? (
        <div>
          <Button
            onClick={() => void step.run({ status: 'under_review' }, 'Report claimed')}
            disabled={step.pending}
          >
            Claim for review
          </Button>
        </div>
      ) : null}
      {reviewing ? (
        <PublicVersionForm
          report={report}
          masks={masks}
          redacted={redacted}
          onRedacted={setRedacted}
          step={step}
        />
      ) : null}
      {report.status === 'under_review' && !own ? <RejectForm step={step} /> : null}
      {decided ? <p className="text-muted-foreground text-sm">This report is closed.</p> : null}
      <EvidenceReview reportId={report.id} own={own} />
      <BrandLink report={report} step={step} />
      {report.status !== 'rejected' ? <MergeDuplicate report={report} step={step} /> : null}
    </article>
  );
}
