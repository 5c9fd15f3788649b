import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { useClaimBrand } from '../api/claim-brand.ts';
import { CLAIM_MAX_LENGTH, type ClaimValues, claimProblem } from '../representative.ts';
import { FormNote, useFormNote } from './form-note.tsx';
import { ProblemField } from './problem-field.tsx';

/** The member's claim: their role at the brand and how an admin can confirm it. */
export function ClaimForm({
  brandId,
  userId,
  onSent,
}: {
  brandId: string;
  userId: string;
  onSent: () => void;
}) {
  const form = useForm<ClaimValues>({ roleTitle: '', message: '' }, { maxLength: CLAIM_MAX_LENGTH });
  const { note, attempt } = useFormNote(form);
  const claim = useClaimBrand();

  const submit = form.handleSubmit((values) =>
    attempt(claimProblem(values), async () => {
      await claim.mutateAsync({
        brandId,
        userId,
        roleTitle: values.roleTitle.trim(),
        message: values.message.trim(),
      });
      onSent();
    }),
  );

  return (
    <form ref={form.ref} className="grid gap-4" onSubmit={submit}>
      <ProblemField id="claim-role" label="Your role at the brand" field={form.field('roleTitle')} announce>
        {(props) => <Input {...props} />}
      </ProblemField>
      <ProblemField
        id="claim-message"
        label="How can an admin confirm it? (optional)"
        field={form.field('message')}
        announce
      >
        {(props) => <Textarea {...props} />}
      </ProblemField>
      <FormNote note={note} />
      <Button type="submit" disabled={form.busy}>
        {form.busy ? 'Sending…' : 'Send claim'}
      </Button>
    </form>
  );
}
