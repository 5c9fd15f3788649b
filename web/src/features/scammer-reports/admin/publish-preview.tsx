import { useQuery } from '@tanstack/react-query';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { attribution, formatAmount, formatDay, type RedactableField } from '../database.ts';
import type { AdminReport } from './admin-report.ts';
import { adminEvidenceQueryOptions } from './api/get-admin-evidence.ts';
import { type Mask, type MaskableField, maskedText } from './masks.ts';

/**
 * Decision 195: publishing is confirmed after seeing the report exactly as readers will — the fields of
 * the readers' view (published_scammer_reports), each redacted field as "Removed by the reviewers",
 * each masked span as "[removed by the reviewers]" (decision 197), and never the reporter.
 */
export function PublishPreview({
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
