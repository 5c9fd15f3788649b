import { Button } from '#web/components/ui/button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { rejectionProblem } from './review.ts';
import type { ReviewStep } from './review-step.ts';

/** Rejects the report under review with a reason the reporter reads. */
export function RejectForm({ step }: { step: ReviewStep }) {
  // The key names the column a refusal concerns (rejection_reason; decision 180).
  const form = useForm({ rejectionReason: '' }, { maxLength: { rejectionReason: 1000 } });
  const onSubmit = form.handleSubmit(async ({ rejectionReason }) => {
    if (form.showErrors({ rejectionReason: rejectionProblem(rejectionReason) })) return;
    await step.run(
      { status: 'rejected', rejection_reason: rejectionReason.trim() },
      'Report rejected',
      form.showRefusal,
    );
  });
  return (
    <form
      ref={form.ref}
      aria-label="Reject"
      className="grid gap-2 rounded-xl border border-destructive/40 p-4"
      onSubmit={onSubmit}
    >
      <TextareaField
        id="review-reason"
        label="Reason for rejecting (shown to the reporter)"
        rows={3}
        {...form.field('rejectionReason')}
      />
      <Button type="submit" variant="destructive" className="justify-self-start" disabled={step.pending}>
        Reject
      </Button>
    </form>
  );
}
