import { Button } from '#web/components/ui/button.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useEditComment } from '../api/edit-comment.ts';
import { COMMENT_MAX_LENGTH, commentProblem } from '../comment-rules.ts';
import type { ProductComment } from '../types.ts';
import { attemptWrite } from './write-failed.ts';

/** The member's own comment in a box (its label for screen readers only), Save and Cancel. */
export function EditCommentForm({ comment, onDone }: { comment: ProductComment; onDone: () => void }) {
  const form = useForm({ content: comment.content }, { maxLength: { content: COMMENT_MAX_LENGTH } });
  const edit = useEditComment();
  const { error, ...content } = form.field('content');
  const id = `edit-${comment.id}`;

  const submit = form.handleSubmit(async (values) => {
    const problem = commentProblem(values.content);
    if (problem) {
      toast({ variant: 'destructive', title: 'Comment not saved', description: problem });
      return;
    }
    const saved = () => edit.mutateAsync({ id: comment.id, content: values.content.trim() });
    if (await attemptWrite(form, 'Comment not saved', saved)) onDone();
  });

  return (
    <form ref={form.ref} className="grid gap-2" onSubmit={submit}>
      <Label htmlFor={id} className="sr-only">
        Edit your comment
      </Label>
      <Textarea
        id={id}
        {...content}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-refusal` : undefined}
      />
      {error ? <FieldError id={`${id}-refusal`} error={error} /> : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={form.busy}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
