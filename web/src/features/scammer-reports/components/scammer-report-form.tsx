import { useQueryClient } from '@tanstack/react-query';
import { Paperclip, ShieldAlert, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, TextareaField } from '#web/components/ui/form-field.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { checkClientRateLimit } from '#web/lib/security/client-rate-limit.ts';
import { getCsrfToken } from '#web/lib/security/csrf-token.ts';
import { logSecurityEvent } from '#web/lib/security/security-events.ts';
import { useForm } from '#web/lib/use-form.ts';
import { checkReportRateLimit } from '../api/check-report-rate-limit.ts';
import { useCreateScammerReport } from '../api/create-scammer-report.ts';
import { attachEvidence } from '../api/evidence-and-replies.ts';
import { addEvidence, EVIDENCE_ACCEPT, EVIDENCE_MAX_FILES } from '../evidence.ts';
import {
  cleaningNote,
  EMPTY_REPORT,
  localIsoDate,
  REPORT_MAX_LENGTH,
  REPORT_RATE_LIMIT,
  REPORT_RULES_TEXTS,
  REPORT_TEXTS,
  type ReportField,
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
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  /** While uploading after the report is stored: each file's progress, 0 to 1. */
  const [progress, setProgress] = useState<number[] | null>(null);
  const evidenceId = useId();
  const truthId = useId();
  const truth = form.field('truthConfirmed');
  /** A cleaned field says, while the reporter types, what saving will leave out of it. */
  const cleaned = (name: ReportField) => ({
    ...form.field(name),
    hint: cleaningNote(name, form.values[name]) ?? undefined,
  });

  /** The report is stored: its files follow, one after the other; a failed file does not undo it. */
  async function uploadEvidence(reportId: string): Promise<string[]> {
    const failed: string[] = [];
    setProgress(files.map(() => 0));
    for (const [index, file] of files.entries()) {
      try {
        await attachEvidence(reportId, file, (fraction) =>
          setProgress((current) => current?.map((value, i) => (i === index ? fraction : value)) ?? null),
        );
        setProgress((current) => current?.map((value, i) => (i === index ? 1 : value)) ?? null);
      } catch (error) {
        failed.push(`${file.name}: ${errorText(error)}`);
      }
    }
    setProgress(null);
    void queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'mine'] });
    return failed;
  }

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
        // A rule of the database also shows under its field (decision 180).
        form.showRefusal(outcome.error);
        toast({ variant: 'destructive', title: 'Submission Error', description: errorText(outcome.error) });
        return;
      case 'failed':
        toast({ variant: 'destructive', title: 'Submission Failed', description: errorText(outcome.error) });
        return;
      case 'submitted': {
        const failed = files.length > 0 ? await uploadEvidence(reportId) : [];
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
        setFiles([]);
        onSubmitted();
        return;
      }
    }
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
      <fieldset className="grid gap-2" aria-describedby={`${evidenceId}-hint`}>
        <legend className="font-medium text-sm">Evidence (optional)</legend>
        <p id={`${evidenceId}-hint`} className="text-muted-foreground text-xs">
          Up to {EVIDENCE_MAX_FILES} screenshots, photos or PDFs (JPEG, PNG, WebP, GIF, PDF; 5 MB each). Only
          reviewers see them until they approve each file for readers.
        </p>
        {files.length < EVIDENCE_MAX_FILES && progress === null ? (
          <label
            htmlFor={`${evidenceId}-input`}
            className="inline-flex w-fit cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm hover:bg-accent focus-within:ring-2 focus-within:ring-ring"
          >
            <Paperclip aria-hidden="true" className="size-4" />
            Add files
            <input
              id={`${evidenceId}-input`}
              type="file"
              multiple
              accept={EVIDENCE_ACCEPT}
              className="sr-only"
              onChange={(event) => {
                const picked = Array.from(event.target.files ?? []);
                event.target.value = '';
                const next = addEvidence(files, picked);
                setFiles(next.files);
                setFileProblem(next.problem);
              }}
            />
          </label>
        ) : null}
        {fileProblem ? (
          <p role="alert" className="text-destructive text-sm dark:text-red-400">
            {fileProblem}
          </p>
        ) : null}
        {files.length > 0 ? (
          <ul className="grid gap-2" aria-label="Evidence files">
            {files.map((file, index) => (
              <li
                key={`${file.name}-${file.size}-${file.lastModified}`}
                className="grid gap-1 rounded-md border p-2 text-sm"
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="min-w-0 truncate">{file.name}</span>
                  {progress === null ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${file.name}`}
                      onClick={() => setFiles(files.filter((_, i) => i !== index))}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  ) : null}
                </div>
                {progress !== null ? (
                  <Progress
                    value={Math.round((progress[index] ?? 0) * 100)}
                    aria-label={`Uploading ${file.name}`}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <section
        aria-labelledby={`${truthId}-heading`}
        className="grid gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
      >
        <h3 id={`${truthId}-heading`} className="flex items-center gap-2 font-medium">
          <ShieldAlert aria-hidden="true" className="size-5 shrink-0 text-warning" />
          Before you submit
        </h3>
        <ul className="grid list-disc gap-1 pl-5">
          <li>
            All reports are reviewed before publication. False reports may result in account suspension.
          </li>
          <li>{REPORT_RULES_TEXTS.published}</li>
          <li>{REPORT_RULES_TEXTS.reply}</li>
          <li>{REPORT_RULES_TEXTS.thirdParties}</li>
        </ul>
        <div className="grid gap-1">
          <label htmlFor={`${truthId}-box`} className="flex items-start gap-2 font-medium">
            <input
              id={`${truthId}-box`}
              type="checkbox"
              name={truth.name}
              required
              checked={truth.value === 'yes'}
              aria-invalid={truth.error ? true : undefined}
              aria-describedby={truth.error ? `${truthId}-error` : undefined}
              onChange={(event) => truth.onChange({ target: { value: event.target.checked ? 'yes' : '' } })}
              className="mt-0.5 size-4 shrink-0 accent-primary"
            />
            {REPORT_TEXTS.truthLabel}
          </label>
          {truth.error ? (
            <p id={`${truthId}-error`} className="text-destructive text-sm dark:text-red-400">
              {truth.error}
            </p>
          ) : null}
        </div>
      </section>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.busy}>
          {progress !== null ? 'Uploading evidence...' : form.busy ? 'Submitting...' : 'Submit Report'}
        </Button>
      </div>
    </form>
  );
}
