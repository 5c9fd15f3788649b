import { ShieldAlert } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { checkClientRateLimit } from '#web/lib/security/client-rate-limit.ts';
import { getCsrfToken } from '#web/lib/security/csrf-token.ts';
import { logSecurityEvent } from '#web/lib/security/security-events.ts';
import { useForm } from '#web/lib/use-form.ts';
import { checkReportRateLimit } from '../api/check-report-rate-limit.ts';
import { useCreateScammerReport } from '../api/create-scammer-report.ts';
import {
  EMPTY_REPORT,
  localIsoDate,
  REPORT_MAX_LENGTH,
  REPORT_RATE_LIMIT,
  REPORT_TEXTS,
  type ReportValues,
} from '../report.ts';
import { submitReport } from '../submit-report.ts';

/** Product §report-dialog: the fields, the review notice, Cancel and Submit Report. */
export function ScammerReportForm({
  onCancel,
  onSubmitted,
}: {
  onCancel: () => void;
  onSubmitted: () => void;
}) {
  const auth = useAuth();
  const createReport = useCreateScammerReport();
  const form = useForm<ReportValues>(EMPTY_REPORT, { maxLength: REPORT_MAX_LENGTH });

  const onSubmit = form.handleSubmit(async (values) => {
    const outcome = await submitReport(values, {
      userId: auth.user?.id ?? null,
      csrfToken: getCsrfToken(),
      now: new Date(),
      clientAllows: () =>
        checkClientRateLimit(REPORT_RATE_LIMIT.actionType, {
          maxAttempts: REPORT_RATE_LIMIT.maxAttempts,
          windowMs: REPORT_RATE_LIMIT.timeWindowMinutes * 60_000,
        }),
      serverAllows: checkReportRateLimit,
      insert: createReport.mutateAsync,
    });
    switch (outcome.kind) {
      case 'signed-out':
        toast({ variant: 'destructive', ...REPORT_TEXTS.signInRequired });
        return;
      case 'token-missing':
        toast({ variant: 'destructive', ...REPORT_TEXTS.tokenMissing });
        void logSecurityEvent({
          type: 'csrf_token_missing',
          category: 'security',
          action: 'submit_scammer_report',
          description: REPORT_TEXTS.tokenMissing.description,
          riskLevel: 'high',
        });
        return;
      case 'invalid':
        form.showErrors(outcome.problems);
        toast({ variant: 'destructive', title: 'Validation Error', description: outcome.message });
        return;
      case 'rate-limited':
        toast({ variant: 'destructive', ...REPORT_TEXTS.rateLimited });
        void logSecurityEvent({
          type: 'rate_limit_exceeded',
          category: 'abuse',
          action: 'submit_scammer_report',
          description: REPORT_TEXTS.rateLimited.description,
          riskLevel: 'medium',
          data: { limited_by: outcome.by },
        });
        return;
      case 'rejected':
        toast({ variant: 'destructive', title: 'Submission Error', description: errorText(outcome.error) });
        return;
      case 'failed':
        toast({ variant: 'destructive', title: 'Submission Failed', description: errorText(outcome.error) });
        return;
      case 'submitted':
        toast({
          title: 'Report Submitted',
          description: 'Thank you. Your report will be reviewed before publication.',
        });
        form.reset();
        onSubmitted();
        return;
    }
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4" aria-busy={form.busy}>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label="Scammer Name" required {...form.field('scammerName')} />
        <InputField label="Location" {...form.field('location')} />
      </div>
      <TextareaField label="Scammer Description" required rows={3} {...form.field('scammerDescription')} />
      <TextareaField label="Incident Details" required rows={4} {...form.field('incidentDetails')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label="Business Name" {...form.field('businessName')} />
        <InputField label="Contact Info Used" {...form.field('contactInfo')} />
        <InputField
          label="Amount Scammed ($)"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          {...form.field('amountScammed')}
        />
        <InputField
          label="Date of Incident"
          type="date"
          max={localIsoDate()}
          {...form.field('dateOfIncident')}
        />
      </div>
      <div className="flex gap-3 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
        <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warning" />
        <p>All reports are reviewed before publication. False reports may result in account suspension.</p>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.busy}>
          {form.busy ? 'Submitting...' : 'Submit Report'}
        </Button>
      </div>
    </form>
  );
}
