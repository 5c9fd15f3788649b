import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { logSecurityEvent } from '#web/lib/security/security-events.ts';
import type { FieldErrors } from '#web/lib/use-form.ts';
import type { ReportField } from '../report.ts';
import { REPORT_TEXTS } from '../report.ts';
import type { SubmitOutcome } from '../submit-report.ts';

/** What a submission that stored nothing does to the form: its problems at their fields. */
interface ReportFormErrors {
  showErrors: (errors: FieldErrors<ReportField>) => boolean;
  showRefusal: (error: unknown) => string | null;
}

/**
 * Says why Submit Report stored nothing (product §report-dialog): a toast, the problems at their fields,
 * and a security event for a missing token or a rate limit.
 */
export function sayNotSubmitted(
  outcome: Exclude<SubmitOutcome, { kind: 'submitted' }>,
  form: ReportFormErrors,
) {
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
  }
}
