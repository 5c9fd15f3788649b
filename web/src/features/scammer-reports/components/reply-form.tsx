import { Button } from '#web/components/ui/button.tsx';
import { SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText, UserFacingError } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { REPLY_KINDS, REPLY_RELATIONS, type ReplyKind, type ReplyRelation } from '../api/reply-kinds.ts';
import { useSendReply } from '../api/send-reply.ts';
import { REPLY_BODY_MAX, replyProblem } from './reply-rules.ts';

interface ReplyValues {
  kind: ReplyKind;
  relation: ReplyRelation;
  body: string;
}

const EMPTY_REPLY: ReplyValues = { kind: 'reply', relation: 'person', body: '' };

/**
 * A reply, a correction or a takedown request (decision 126). A refusal of the message by the database
 * is shown under it and the keyboard goes there (decision 180).
 */
export function ReplyForm({ id }: { id: string }) {
  const send = useSendReply(id);
  const form = useForm<ReplyValues>(EMPTY_REPLY, { maxLength: { body: REPLY_BODY_MAX } });
  const kind = form.field('kind');

  const onSubmit = form.handleSubmit(async (values) => {
    if (form.showErrors({ body: replyProblem(values.body) })) return;
    try {
      await send.mutateAsync({ kind: values.kind, relation: values.relation, body: values.body.trim() });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Could not send',
        description:
          form.showRefusal(error) ??
          errorText(
            (error as { code?: string }).code === '23514'
              ? new UserFacingError((error as Error).message)
              : error,
          ),
      });
      return;
    }
    // The kind and the relation stay: a second message is usually of the same sort.
    form.setValues({ ...values, body: '' });
    toast({ title: 'Sent for review', description: 'The reviewers will tell you their decision.' });
  });

  return (
    <form
      ref={form.ref}
      aria-label="Your reply"
      noValidate
      className="grid gap-4 rounded-xl border p-4"
      onSubmit={onSubmit}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium text-sm">What are you sending?</legend>
        {REPLY_KINDS.map(([key, label, hint]) => (
          <label key={key} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="reply-kind"
              value={key}
              className="mt-1 size-4 accent-primary"
              checked={kind.value === key}
              onChange={() => kind.onChange({ target: { value: key } })}
            />
            <span>
              <span className="font-medium">{label}</span>
              <span className="block text-muted-foreground">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <SelectField label="How are you named in the report?" {...form.field('relation')}>
        {REPLY_RELATIONS.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextareaField
        label="Your message"
        required
        rows={6}
        hint="Shown to the report's readers if it is an accepted reply or correction, without your name. Leave out addresses and ID numbers."
        {...form.field('body')}
      />
      <Button type="submit" className="justify-self-start" disabled={form.busy}>
        {form.busy ? 'Sending...' : 'Send for review'}
      </Button>
    </form>
  );
}
