import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useUpdateBrandProfile } from '../api/update-brand-profile.ts';
import { removeStoredLogo, storedLogoPath } from '../logo/logo.ts';
import { LogoField } from '../logo/logo-field.tsx';
import { useLogoUploads } from '../logo/use-logo-uploads.ts';
import {
  PROFILE_MAX_LENGTH,
  type ProfileValues,
  profileInputOf,
  profileProblem,
  profileValuesOf,
} from '../representative.ts';
import type { Brand } from '../types.ts';
import { FormNote, useFormNote } from './form-note.tsx';
import { ProblemField } from './problem-field.tsx';

/**
 * A representative's edit: description, logo (uploaded, or an https address) and links — nothing else.
 * It lives while its dialog is open: closed without saving, the files it uploaded go (useLogoUploads)
 * and it opens next time on the saved profile.
 */
export function ProfileForm({ brand, onSaved }: { brand: Brand; onSaved: () => void }) {
  const form = useForm<ProfileValues>(profileValuesOf(brand), { maxLength: PROFILE_MAX_LENGTH });
  const [logo, setLogo] = useState<string | null>(brand.logo_url);
  const [uploading, setUploading] = useState(false);
  const { note, setNote, attempt } = useFormNote(form);
  const update = useUpdateBrandProfile();
  const uploads = useLogoUploads(brand.id);

  const submit = form.handleSubmit((values) => {
    const input = profileInputOf(values, logo);
    return attempt(
      profileProblem(input, (url) => storedLogoPath(url, brand.id) !== null),
      async () => {
        await update.mutateAsync({ brandId: brand.id, ...input });
        if (brand.logo_url !== (input.logo_url || null)) void removeStoredLogo(brand.logo_url, brand.id);
        uploads.keep(input.logo_url || null);
        toast({ title: 'Brand profile saved' });
        onSaved();
      },
    );
  });

  return (
    <form ref={form.ref} className="grid gap-4" onSubmit={submit}>
      <ProblemField id="profile-description" label="Description" field={form.field('description')} announce>
        {(props) => <Textarea rows={5} {...props} />}
      </ProblemField>
      <fieldset className="grid gap-1.5">
        <legend className="mb-1 font-medium text-sm">Logo</legend>
        <LogoField
          brandId={brand.id}
          idPrefix="profile"
          value={logo}
          onChange={setLogo}
          onProblem={setNote}
          onBusy={setUploading}
          onUploaded={uploads.add}
        />
      </fieldset>
      <ProblemField id="profile-website" label="Website" field={form.field('website')} announce>
        {(props) => <Input inputMode="url" {...props} />}
      </ProblemField>
      <ProblemField
        id="profile-links"
        label="Social links (one per line)"
        field={form.field('socialLinks')}
        announce
      >
        {(props) => <Textarea rows={3} {...props} />}
      </ProblemField>
      <FormNote note={note} />
      <Button type="submit" disabled={form.busy || uploading}>
        {form.busy ? 'Saving…' : 'Save'}
      </Button>
    </form>
  );
}
