import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { today } from '../brand-input.ts';
import { FormNote, useFormNote } from '../components/form-note.tsx';
import { ProblemField } from '../components/problem-field.tsx';
import { removeStoredLogo } from '../logo/logo.ts';
import { LogoField } from '../logo/logo-field.tsx';
import { useLogoUploads } from '../logo/use-logo-uploads.ts';
import type { Brand } from '../types.ts';
import { useCreateBrand } from './api/create-brand.ts';
import { useUpdateBrand } from './api/update-brand.ts';
import { BrandProfileFields, CategoryChecks } from './brand-form-fields.tsx';
import {
  BRAND_MAX_LENGTH,
  type BrandValues,
  brandInputOf,
  brandProblem,
  brandValuesOf,
  changedColumns,
} from './brand-values.ts';
import { BRAND_LICENCE_WORDING, VerificationFields } from './verification-fields.tsx';

/** Creates a brand, or edits one: its profile, categories, and primary licence with its verification. */
export function BrandForm({ initial, onDone }: { initial: Brand | null; onDone: () => void }) {
  const form = useForm<BrandValues>(brandValuesOf(initial), { maxLength: BRAND_MAX_LENGTH });
  const [categories, setCategories] = useState<string[]>(initial?.categories ?? []);
  const { note, setNote, attempt } = useFormNote(form);
  const [uploading, setUploading] = useState(false);
  const uploads = useLogoUploads(initial?.id);
  const create = useCreateBrand();
  const update = useUpdateBrand();
  const logo = form.field('logo_url');

  const submit = form.handleSubmit((values) =>
    attempt(brandProblem(values), async () => {
      const input = brandInputOf(values, categories, today());
      if (initial) {
        const changed = changedColumns(input, initial);
        await update.mutateAsync({ id: initial.id, input: changed });
        if ('logo_url' in changed) void removeStoredLogo(initial.logo_url, initial.id);
      } else {
        await create.mutateAsync(input);
      }
      uploads.keep(input.logo_url);
      toast({ title: initial ? 'Brand saved' : 'Brand created' });
      onDone();
    }),
  );

  return (
    <form
      ref={form.ref}
      onSubmit={submit}
      className="grid gap-4 rounded-lg border p-4"
      aria-labelledby="brand-form-title"
    >
      <h3 id="brand-form-title" className="font-semibold">
        {initial ? `Edit ${initial.name}` : 'New brand'}
      </h3>
      <BrandProfileFields form={form} isNew={!initial} />
      {initial ? (
        <fieldset className="grid gap-1.5">
          <legend className="mb-1 font-medium text-sm">Logo</legend>
          <LogoField
            brandId={initial.id}
            idPrefix="brand"
            value={logo.value || null}
            onChange={(url) => logo.onChange({ target: { value: url ?? '' } })}
            onProblem={setNote}
            onBusy={setUploading}
            onUploaded={uploads.add}
          />
        </fieldset>
      ) : null}
      <CategoryChecks value={categories} onChange={setCategories} />
      <ProblemField id="brand-description" label="Description" field={form.field('description')}>
        {(props) => <Textarea {...props} />}
      </ProblemField>
      <ProblemField id="brand-links" label="Social links (one per line)" field={form.field('social_links')}>
        {(props) => <Textarea rows={2} {...props} />}
      </ProblemField>
      <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-2">
        <legend className="px-1 font-medium text-sm">
          {initial ? 'Primary licence and verification' : 'Licence and verification'}
        </legend>
        <VerificationFields
          wording={BRAND_LICENCE_WORDING}
          fields={{
            number: form.field('licence_number'),
            state: form.field('licence_state'),
            type: form.field('licence_type'),
            expires: form.field('licence_expires_on'),
            status: form.field('verification'),
            checkedOn: form.field('verified_at'),
            evidence: form.field('verification_note'),
          }}
          saved={initial ? { shown: initial.shown_verification, checkedAt: initial.verified_at } : null}
        />
      </fieldset>
      <FormNote note={note} />
      <div className="flex gap-2">
        <Button type="submit" disabled={form.busy || uploading}>
          {form.busy ? 'Saving…' : initial ? 'Save brand' : 'Create brand'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
