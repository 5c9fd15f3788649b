import { ShieldAlert } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { checkClientRateLimit } from '#web/lib/security/client-rate-limit.ts';
import { getCsrfToken } from '#web/lib/security/csrf-token.ts';
import { logSecurityEvent } from '#web/lib/security/security-events.ts';
import { checkReportRateLimit } from '../api/check-report-rate-limit.ts';
import { useCreateScammerReport } from '../api/create-scammer-report.ts';
import {
  EMPTY_REPORT,
  localIsoDate,
  REPORT_MAX_LENGTH,
  REPORT_RATE_LIMIT,
  REPORT_TEXTS,
  type ReportField,
  type ReportValues,
} from '../report.ts';
import { submitReport } from '../submit-report.ts';

/** Spec §2 "Scammer report dialog": the fields, the review notice, Cancel and Submit Report. */
export function ScammerReportForm({
  onCancel,
  onSubmitted,
}: {
  onCancel: () => void;
  onSubmitted: () => void;
}) {
  const auth = useAuth();
  const createReport = useCreateScammerReport();
  const [values, setValues] = useState<ReportValues>(EMPTY_REPORT);
  const [problems, setProblems] = useState<Partial<Record<ReportField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const set = (field: ReportField) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
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
    setBusy(false);
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
        setProblems(outcome.problems);
        setAttempt((count) => count + 1);
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
        setValues(EMPTY_REPORT);
        setProblems({});
        onSubmitted();
        return;
    }
  };

  return (
    <form ref={form} noValidate onSubmit={onSubmit} className="grid gap-4" aria-busy={busy}>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          label="Scammer Name"
          required
          maxLength={REPORT_MAX_LENGTH.scammerName}
          value={values.scammerName}
          onChange={set('scammerName')}
          error={problems.scammerName}
        />
        <InputField
          label="Location"
          maxLength={REPORT_MAX_LENGTH.location}
          value={values.location}
          onChange={set('location')}
          error={problems.location}
        />
      </div>
      <TextareaField
        label="Scammer Description"
        required
        rows={3}
        maxLength={REPORT_MAX_LENGTH.scammerDescription}
        value={values.scammerDescription}
        onChange={set('scammerDescription')}
        error={problems.scammerDescription}
      />
      <TextareaField
        label="Incident Details"
        required
        rows={4}
        maxLength={REPORT_MAX_LENGTH.incidentDetails}
        value={values.incidentDetails}
        onChange={set('incidentDetails')}
        error={problems.incidentDetails}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          label="Business Name"
          maxLength={REPORT_MAX_LENGTH.businessName}
          value={values.businessName}
          onChange={set('businessName')}
          error={problems.businessName}
        />
        <InputField
          label="Contact Info Used"
          maxLength={REPORT_MAX_LENGTH.contactInfo}
          value={values.contactInfo}
          onChange={set('contactInfo')}
          error={problems.contactInfo}
        />
        <InputField
          label="Amount Scammed ($)"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={values.amountScammed}
          onChange={set('amountScammed')}
          error={problems.amountScammed}
        />
        <InputField
          label="Date of Incident"
          type="date"
          max={localIsoDate()}
          value={values.dateOfIncident}
          onChange={set('dateOfIncident')}
          error={problems.dateOfIncident}
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
        <Button type="submit" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Report'}
        </Button>
      </div>
    </form>
  );
}
