import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { refusedField } from '#web/lib/use-form.ts';
import { type ReviewChange, useReviewReport } from './api/review-report.ts';

/** A refusal's note when no field of the form shows it: the rule's sentence, and that retrying cannot help. */
const noteWithoutField = (error: unknown) => refusedField([], error)?.note ?? null;

export interface ReviewStep {
  /**
   * Saves one review step and says it is done; a refusal goes to `showRefusal` (a form's, which marks its
   * field and gives the note; decision 180), else the reason is said in the toast.
   */
  run: (change: ReviewChange, done: string, showRefusal?: (error: unknown) => string | null) => Promise<void>;
  /** A step is being saved: the buttons that take one wait. */
  pending: boolean;
}

/** Review steps on one report (claim, save, publish, reject, link, merge). */
export function useReviewStep(reportId: string): ReviewStep {
  const review = useReviewReport(reportId);
  const run: ReviewStep['run'] = async (change, done, showRefusal = noteWithoutField) => {
    try {
      await review.mutateAsync(change);
      toast({ title: done });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Could not save',
        description: showRefusal(error) ?? errorText(error),
      });
    }
  };
  return { run, pending: review.isPending };
}
