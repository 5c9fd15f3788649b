import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, FileWarning } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import { adminEvidenceQueryOptions } from '../api/evidence-and-replies.ts';
import {
  attribution,
  formatAmount,
  formatDay,
  REDACTABLE_FIELDS,
  type RedactableField,
} from '../database.ts';
import { statusLabel } from '../report.ts';
import {
  type AdminReport,
  adminReportQueryOptions,
  type ReviewChange,
  useReviewReport,
} from './admin-api.ts';
import { type Mask, type MaskableField, maskedText, masksQueryOptions } from './masks.ts';
import { BrandLink, EvidenceReview, MergeDuplicate } from './review-extras.tsx';
import { MaskedFieldText, MaskReview } from './review-masks.tsx';

/** /admin/reports/<id>: one report under review. */
export function ReportReview() {
  const { id = '' } = useParams();
  const query = useQuery(adminReportQueryOptions(id));
  return (
    <div className="grid gap-4">
      <Button asChild variant="ghost" size="sm" className="justify-self-start">
        <Link to="/admin/reports">
          <ArrowLeft aria-hidden="true" />
          Back to the queue
        </Link>
      </Button>
      {query.isPending ? (
        <Skeleton className="h-64" />
      ) : query.isError ? (
        <p role="alert" className="text-destructive dark:text-red-400">
          {errorText(query.error)}
        </p>
      ) : query.data === null ? (
        <EmptyState icon={FileWarning} title="Report not found" headingLevel={3}>
          It may have been deleted.
        </EmptyState>
      ) : (
        <ReviewForm key={`${query.data.id}-${query.data.status}`} report={query.data} />
      )}
    </div>
  );
}

/** The columns the review writes from text the admin types, and their inputs (decision 180). */
const REVIEW_INPUTS = { public_summary: 'review-summary', rejection_reason: 'review-reason' };

function ReviewForm({ report }: { report: AdminReport }) {
  const { user } = useAuth();
  const review = useReviewReport(report.id);
  const [summary, setSummary] = useState(report.public_summary ?? '');
  const [redacted, setRedacted] = useState<Set<RedactableField>>(new Set(report.redacted_fields));
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [summaryError, setSummaryError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const decided = report.status === 'rejected';
  // Decision 195: the member who filed a report never reviews it, admins included (the database
  // refuses it too).
  const own = report.reporter_user_id === user?.id;
  // Decision 197: masked spans of the text; the database proposes some, the reviewer decides.
  const masksQuery = useQuery({ ...masksQueryOptions(report.id), enabled: !own });
  const masks = masksQuery.data ?? [];
  const [masksError, setMasksError] = useState<string | null>(null);
  const marked = (field: MaskableField, text: string) => (
    <MaskedFieldText text={text} masks={masks} field={field} />
  );

  // The database's refusal at the field it concerns (decision 180): the summary or the reason.
  const refusal = useFieldRefusal(REVIEW_INPUTS);
  const summaryProblem = summaryError ?? refusal.errorFor('public_summary');
  const reasonProblem = reasonError ?? refusal.errorFor('rejection_reason');

  async function step(change: ReviewChange, done: string) {
    refusal.clear();
    try {
      await review.mutateAsync(change);
      toast({ title: done });
    } catch (error) {
      const note = refusal.show(error);
      toast({ variant: 'destructive', title: 'Could not save', description: note ?? errorText(error) });
    }
  }
  const edits = (): ReviewChange => ({
    public_summary: summary.trim() || null,
    redacted_fields: REDACTABLE_FIELDS.map(([field]) => field).filter((field) => redacted.has(field)),
  });

  return (
    <article aria-labelledby="review-title" className="grid gap-5">
      <header className="flex flex-wrap items-center gap-3">
        <h3 id="review-title" className="font-semibold text-2xl">
          {marked('scammer_name', report.scammer_name)}
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

      <dl className="grid gap-3 sm:grid-cols-2">
        <Field label="Description" redacted={redacted.has('scammer_description')}>
          {marked('scammer_description', report.scammer_description)}
        </Field>
        <Field label="Incident details" redacted={redacted.has('incident_details')}>
          {marked('incident_details', report.incident_details)}
        </Field>
        <Field label="Business name" redacted={redacted.has('business_name')}>
          {report.business_name ? marked('business_name', report.business_name) : '—'}
        </Field>
        <Field label="Location" redacted={redacted.has('location')}>
          {report.location ? marked('location', report.location) : '—'}
        </Field>
        <Field label="Contact details" redacted={redacted.has('contact_info')}>
          {report.contact_info ? marked('contact_info', report.contact_info) : '—'}
        </Field>
        <Field label="Amount" redacted={redacted.has('amount_scammed')}>
          {formatAmount(report.amount_scammed) ?? '—'}
        </Field>
        <Field label="Date of incident" redacted={redacted.has('date_of_incident')}>
          {report.date_of_incident ? formatDay(report.date_of_incident) : '—'}
        </Field>
      </dl>

      {own && !decided ? (
        <p role="note" className="rounded-lg border p-3" data-testid="own-report">
          You filed this report, so another admin reviews, redacts and publishes it.
        </p>
      ) : null}

      {(report.status === 'under_review' || report.status === 'published') && !own ? (
        <MaskReview report={report} masks={masks} pending={masksQuery.isPending} failed={masksQuery.error} />
      ) : null}

      {report.status === 'submitted' && !own ? (
        <div>
          <Button
            onClick={() => void step({ status: 'under_review' }, 'Report claimed')}
            disabled={review.isPending}
          >
            Claim for review
          </Button>
        </div>
      ) : null}

      {(report.status === 'under_review' || report.status === 'published') && !own ? (
        <form
          aria-label="Public version"
          className="grid gap-4 rounded-xl border p-4"
          onSubmit={(event) => {
            event.preventDefault();
            void step(edits(), 'Changes saved');
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="review-summary">Public summary</Label>
            <Textarea
              id="review-summary"
              maxLength={2000}
              rows={4}
              value={summary}
              aria-invalid={summaryProblem ? true : undefined}
              aria-describedby={
                summaryProblem ? 'review-summary-hint review-summary-error' : 'review-summary-hint'
              }
              onChange={(event) => {
                setSummary(event.target.value);
                setSummaryError(null);
                refusal.clear();
              }}
            />
            <p id="review-summary-hint" className="text-muted-foreground text-xs">
              Shown above the report. Write it as the member's account, never as a verdict. Needed to publish.
            </p>
            {summaryProblem ? (
              <p id="review-summary-error" className="text-destructive text-sm dark:text-red-400">
                {summaryProblem}
              </p>
            ) : null}
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">Redact from readers</legend>
            <p className="text-muted-foreground text-xs">
              Hide fields holding personal data such as a third party's home address or ID numbers. The
              reporter is never shown to readers.
            </p>
            <div className="grid gap-2 sm:grid-cols-2">
              {REDACTABLE_FIELDS.map(([field, label]) => (
                <label key={field} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={redacted.has(field)}
                    onChange={(event) => {
                      const next = new Set(redacted);
                      if (event.target.checked) next.add(field);
                      else next.delete(field);
                      setRedacted(next);
                    }}
                  />
                  Redact {label.toLowerCase()}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="outline" disabled={review.isPending}>
              Save changes
            </Button>
            {report.status === 'under_review' ? (
              <>
                <Button
                  type="button"
                  disabled={review.isPending}
                  onClick={() => {
                    if (!summary.trim()) {
                      setSummaryError(
                        "Write the reviewers' summary before publishing: readers see it above the report.",
                      );
                      document.getElementById('review-summary')?.focus();
                      return;
                    }
                    if (masks.some((mask) => mask.state === 'proposed')) {
                      setMasksError(
                        'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.',
                      );
                      document.getElementById('masks-heading')?.scrollIntoView();
                      return;
                    }
                    setMasksError(null);
                    setPreviewing(true);
                  }}
                >
                  Publish…
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  disabled={review.isPending}
                  onClick={() => void step({ status: 'submitted' }, 'Report released to the queue')}
                >
                  Release
                </Button>
              </>
            ) : (
              <Button
                type="button"
                variant="destructive"
                disabled={review.isPending}
                onClick={() => void step({ status: 'under_review' }, 'Report taken down for review')}
              >
                Take down for review
              </Button>
            )}
          </div>
          {masksError ? (
            <p role="alert" className="text-destructive text-sm dark:text-red-400">
              {masksError}
            </p>
          ) : null}
        </form>
      ) : null}

      {report.status === 'under_review' && !own ? (
        <form
          aria-label="Reject"
          className="grid gap-2 rounded-xl border border-destructive/40 p-4"
          onSubmit={(event) => {
            event.preventDefault();
            const text = reason.trim();
            if (text.length < 5) {
              setReasonError('Give the reporter a reason of at least 5 characters.');
              return;
            }
            setReasonError(null);
            void step({ status: 'rejected', rejection_reason: text }, 'Report rejected');
          }}
        >
          <Label htmlFor="review-reason">Reason for rejecting (shown to the reporter)</Label>
          <Textarea
            id="review-reason"
            rows={3}
            maxLength={1000}
            value={reason}
            aria-invalid={reasonProblem ? true : undefined}
            aria-describedby={reasonProblem ? 'review-reason-error' : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              refusal.clear();
            }}
          />
          {reasonProblem ? (
            <p id="review-reason-error" className="text-destructive text-sm dark:text-red-400">
              {reasonProblem}
            </p>
          ) : null}
          <Button
            type="submit"
            variant="destructive"
            className="justify-self-start"
            disabled={review.isPending}
          >
            Reject
          </Button>
        </form>
      ) : null}
      {decided ? <p className="text-muted-foreground text-sm">This report is closed.</p> : null}
      <PublishPreview
        open={previewing}
        busy={review.isPending}
        report={{ ...report, public_summary: summary.trim(), redacted_fields: [...redacted] }}
        masks={masks}
        onCancel={() => setPreviewing(false)}
        onConfirm={async () => {
          await step({ ...edits(), status: 'published' }, 'Report published');
          setPreviewing(false);
        }}
      />
      <EvidenceReview reportId={report.id} own={own} />
      <BrandLink report={report} />
      {report.status !== 'rejected' ? <MergeDuplicate report={report} /> : null}
    </article>
  );
}

function Field({ label, redacted, children }: { label: string; redacted: boolean; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="flex items-center gap-2 text-muted-foreground text-xs uppercase tracking-wide">
        {label}
        {redacted ? <Badge variant="secondary">Redacted</Badge> : null}
      </dt>
      <dd className="mt-1 whitespace-pre-line">{children}</dd>
    </div>
  );
}

/**
 * Decision 195: publishing is confirmed after seeing the report exactly as readers will — the fields of
 * the readers' view (published_scammer_reports), each redacted field as "Removed by the reviewers",
 * each masked span as "[removed by the reviewers]" (decision 197), and never the reporter.
 */
function PublishPreview({
  open,
  busy,
  report,
  masks,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  busy: boolean;
  report: AdminReport;
  masks: readonly Mask[];
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}) {
  // The files readers will have: approved, with their metadata removed (decision 199).
  const evidence = useQuery(adminEvidenceQueryOptions(report.id));
  const shownFiles = (evidence.data ?? []).filter((file) => file.approved_at && file.cleaned_at).length;
  const redacted = new Set(report.redacted_fields);
  const shown = (field: RedactableField, value: ReactNode) =>
    redacted.has(field) ? <span className="italic">Removed by the reviewers</span> : value;
  // Masked spans as readers get them (decision 197).
  const masked = (field: MaskableField, text: string | null) =>
    text ? maskedText(text, masks, field) : 'Not given';
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !busy && onCancel()}>
      <AlertDialogContent className="max-w-2xl">
        <AlertDialogTitle>Publish this report?</AlertDialogTitle>
        <AlertDialogDescription>
          Members with Scammer Network access will read exactly this. The reporter is never shown.
        </AlertDialogDescription>
        <section aria-label="What readers will see" className="grid gap-3 rounded-lg border p-4 text-sm">
          <h3 className="font-semibold text-lg">{masked('scammer_name', report.scammer_name)}</h3>
          <p className="text-muted-foreground">{attribution(report.created_at, new Date().toISOString())}</p>
          <div className="rounded-md border-primary border-l-4 bg-primary/5 p-3">
            <h4 className="font-medium">Summary by HighGrade's reviewers</h4>
            <p className="whitespace-pre-line">{report.public_summary}</p>
          </div>
          <h4 className="font-medium">The member's account</h4>
          <p className="text-muted-foreground">
            What follows is the member's account, reviewed for publication: it is not a finding by HighGrade.
          </p>
          <dl className="grid gap-2 sm:grid-cols-2">
            {(
              [
                ['Business name', 'business_name', masked('business_name', report.business_name)],
                ['Location', 'location', masked('location', report.location)],
                ['Amount', 'amount_scammed', formatAmount(report.amount_scammed) ?? 'Not given'],
                [
                  'Date of incident',
                  'date_of_incident',
                  report.date_of_incident ? formatDay(report.date_of_incident) : 'Not given',
                ],
                ['Contact details', 'contact_info', masked('contact_info', report.contact_info)],
                [
                  'Description',
                  'scammer_description',
                  masked('scammer_description', report.scammer_description),
                ],
                ['The incident', 'incident_details', masked('incident_details', report.incident_details)],
              ] as const
            ).map(([label, field, value]) => (
              <div key={field}>
                <dt className="text-muted-foreground text-xs uppercase tracking-wide">{label}</dt>
                <dd className="whitespace-pre-line">{shown(field, value)}</dd>
              </div>
            ))}
          </dl>
          <p data-testid="preview-evidence">
            {evidence.isPending
              ? 'Counting the approved evidence files…'
              : shownFiles === 0
                ? 'Evidence: no files (none approved).'
                : shownFiles === 1
                  ? 'Evidence: 1 approved file, without its metadata.'
                  : `Evidence: ${shownFiles} approved files, without their metadata.`}
          </p>
        </section>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogPrimitive.Cancel asChild>
            <Button variant="outline" disabled={busy}>
              Cancel
            </Button>
          </AlertDialogPrimitive.Cancel>
          <Button disabled={busy} onClick={() => void onConfirm()}>
            {busy ? 'Publishing…' : 'Publish'}
          </Button>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
