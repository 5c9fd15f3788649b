import { Button } from '#web/components/ui/button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useAddComment } from '../api/add-comment.ts';
import { COMMENT_MAX_LENGTH, commentProblem } from '../comment-rules.ts';
import { attemptWrite } from './write-failed.ts';

/** The signed-in member's new comment; the database's refusal shows at the box (decision 180). */
export function NewCommentForm({ productId }: { productId: string }) {
  const form = useForm({ content: '' }, { maxLength: { content: COMMENT_MAX_LENGTH } });
  const add = useAddComment();
  const content = form.field('content');

  const submit = form.handleSubmit(async (values) => {
    if (form.showErrors({ content: commentProblem(values.content) })) return;
    if (
      await attemptWrite(form, 'Comment not posted', () =>
        add.mutateAsync({ productId, content: values.content.trim() }),
      )
    ) {
      form.reset();
      toast({ title: 'Comment posted' });
    }
  });

  return (
    <form ref={form.ref} onSubmit={submit} className="grid gap-2">
      <TextareaField
        id="new-comment"
        label="Add a comment"
        // The count gives way to the problem, so the box is described by one or the other.
        hint={
          content.error
            ? undefined
            : `${content.value.length}/${COMMENT_MAX_LENGTH} characters. Plain text only.`
        }
        {...content}
      />
      <div>
        <Button type="submit" disabled={form.busy}>
          {form.busy ? 'Posting…' : 'Post comment'}
        </Button>
      </div>
    </form>
  );
}
