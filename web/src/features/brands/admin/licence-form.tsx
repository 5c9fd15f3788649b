import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { today } from '../brand-input.ts';
import { FormNote, useFormNote } from '../components/form-note.tsx';
import type { BrandLicence } from '../types.ts';
import { useAddLicence } from './api/add-licence.ts';
import { useUpdateLicence } from './api/update-licence.ts';
import {
  LICENCE_MAX_LENGTH,
  type LicenceValues,
  licenceInputOf,
  licenceProblem,
  licenceValuesOf,
} from './licence-values.ts';
import { licenceWording, VerificationFields } from './verification-fields.tsx';

/** Adds or edits one licence: number, issuing state, type, expiry and its verification. */
export function LicenceForm({
  brandId,
  initial,
  onDone,
}: {
  brandId: string;
  initial: BrandLicence | null;
  onDone: () => void;
}) {
  const form = useForm<LicenceValues>(licenceValuesOf(initial), { maxLength: LICENCE_MAX_LENGTH });
  const { note, attempt } = useFormNote(form);
  const add = useAddLicence();
  const update = useUpdateLicence();
  const title = initial ? `Edit licence ${initial.state} ${initial.number}` : 'Add a licence';

  const submit = form.handleSubmit((values) =>
    attempt(licenceProblem(values), async () => {
      const input = licenceInputOf(values, initial?.is_primary ?? false, today());
      if (initial) await update.mutateAsync({ id: initial.id, input });
      else await add.mutateAsync({ brandId, input });
      toast({ title: initial ? 'Licence saved' : 'Licence added' });
      onDone();
    }),
  );

  return (
    <form
      ref={form.ref}
      onSubmit={submit}
      aria-label={title}
      className="grid gap-3 rounded-md border p-3 sm:grid-cols-2"
    >
      <h5 className="font-medium sm:col-span-2">{title}</h5>
      <VerificationFields
        wording={licenceWording(initial ? `licence-${initial.id}` : 'licence-new')}
        fields={{
          number: form.field('number'),
          state: form.field('state'),
          type: form.field('type'),
          expires: form.field('expires_on'),
          status: form.field('verification'),
          checkedOn: form.field('verified_at'),
          evidence: form.field('verification_note'),
        }}
        saved={initial ? { shown: initial.shown_verification, checkedAt: initial.verified_at } : null}
      />
      <FormNote note={note} className="sm:col-span-2" />
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" size="sm" disabled={form.busy}>
          {form.busy ? 'Saving…' : initial ? 'Save licence' : 'Add licence'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
