import { Button } from '#web/components/ui/button.tsx';
import { InputField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { checkClientRateLimit } from '#web/lib/security/client-rate-limit.ts';
import { getCsrfToken } from '#web/lib/security/csrf-token.ts';
import { useForm } from '#web/lib/use-form.ts';
import { checkReportRateLimit } from '../api/check-report-rate-limit.ts';
import { useCreateScammerReport } from '../api/create-scammer-report.ts';
import {
  cleaningNote,
  EMPTY_REPORT,
  localIsoDate,
  REPORT_MAX_LENGTH,
  REPORT_RATE_LIMIT,
  type ReportField,
  type ReportValues,
} from '../report.ts';
import { submitReport } from '../submit-report.ts';
import { EvidencePicker } from './evidence-picker.tsx';
import { sayNotSubmitted } from './report-outcome.ts';
import { ReportTruth } from './report-truth.tsx';
import { useEvidenceUpload } from './use-evidence-upload.ts';

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
  const evidence = useEvidenceUpload();
  /** A cleaned field says, while the reporter types, what saving will leave out of it. */
  const cleaned = (name: ReportField) => ({
    ...form.field(name),
    hint: cleaningNote(name, form.values[name]) ?? undefined,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const reportId = crypto.randomUUID();
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
      insert: (row) => createReport.mutateAsync({ ...row, id: reportId }),
    });
    if (outcome.kind !== 'submitted') {
      sayNotSubmitted(outcome, form);
      return;
    }
    const failed = evidence.files.length > 0 ? await evidence.upload(reportId) : [];
    toast({
      title: 'Report Submitted',
      description: 'Thank you. Your report will be reviewed before publication.',
    });
    if (failed.length > 0) {
      toast({
        variant: 'destructive',
        title: 'Some evidence was not uploaded',
        description: `Your report was submitted without: ${failed.join('; ')}`,
      });
    }
    form.reset();
    evidence.setFiles([]);
    onSubmitted();
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4" aria-busy={form.busy}>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label="Scammer Name" required {...form.field('scammerName')} />
        <InputField label="Location" {...cleaned('location')} />
      </div>
      <TextareaField label="Scammer Description" required rows={3} {...cleaned('scammerDescription')} />
      <TextareaField label="Incident Details" required rows={4} {...cleaned('incidentDetails')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label="Business Name" {...form.field('businessName')} />
        <InputField label="Contact Info Used" {...cleaned('contactInfo')} />
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
      <EvidencePicker files={evidence.files} onChange={evidence.setFiles} progress={evidence.progress} />
      <ReportTruth truth={form.field('truthConfirmed')} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.busy}>
          {evidence.progress !== null
            ? 'Uploading evidence...'
            : form.busy
              ? 'Submitting...'
              : 'Submit Report'}
        </Button>
      </div>
    </form>
  );
}
