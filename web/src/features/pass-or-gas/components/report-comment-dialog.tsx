import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useReportComment } from '../api/report-comment.ts';
import { REPORT_REASON_MAX_LENGTH } from '../comment-rules.ts';
import type { ProductComment } from '../types.ts';
import { attemptWrite } from './write-failed.ts';

/** Asks for an optional reason and reports `comment` (null: closed). */
export function ReportCommentDialog({
  comment,
  onClose,
}: {
  comment: ProductComment | null;
  onClose: () => void;
}) {
  return (
    <AlertDialog open={comment !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <AlertDialogContent>
        <AlertDialogTitle>Report this comment?</AlertDialogTitle>
        <AlertDialogDescription>
          A moderator will review it and may hide it. The author is not told who reported it.
        </AlertDialogDescription>
        {comment ? <ReportForm comment={comment} onSent={onClose} /> : null}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The dialog stays open until the report is sent: a refused reason is shown at its field (decision 180). */
function ReportForm({ comment, onSent }: { comment: ProductComment; onSent: () => void }) {
  const form = useForm({ reason: '' }, { maxLength: { reason: REPORT_REASON_MAX_LENGTH } });
  const report = useReportComment();

  const submit = form.handleSubmit(async (values) => {
    form.clearError('reason');
    const sent = () => report.mutateAsync({ id: comment.id, reason: values.reason.trim() });
    if (await attemptWrite(form, 'Report not sent', sent)) {
      onSent();
      toast({ title: 'Report sent', description: 'Thank you. A moderator will review the comment.' });
    }
  });

  return (
    <form ref={form.ref} onSubmit={submit} className="grid gap-4">
      <TextareaField
        id="report-reason"
        label="Reason (optional)"
        className="gap-1.5"
        {...form.field('reason')}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <AlertDialogPrimitive.Cancel asChild>
          <Button variant="outline">Cancel</Button>
        </AlertDialogPrimitive.Cancel>
        <Button type="submit">Send report</Button>
      </div>
    </form>
  );
}
