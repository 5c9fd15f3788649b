import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { BrandLicence } from '../types.ts';
import { licencesQueryOptions } from './api/get-licences.ts';
import { useRemoveLicence } from './api/remove-licence.ts';
import { useUpdateLicence } from './api/update-licence.ts';
import { LicenceForm } from './licence-form.tsx';
import { LicenceRow } from './licence-row.tsx';

/**
 * Every licence of a brand (decision 151): add, edit, verify (status, date, evidence), set expiry,
 * make primary, remove. The primary licence is the one cards and promotions show.
 */
export function LicencesPanel({ brandId, brandName }: { brandId: string; brandName: string }) {
  const licences = useQuery(licencesQueryOptions(brandId));
  const update = useUpdateLicence();
  const remove = useRemoveLicence();
  const [editing, setEditing] = useState<BrandLicence | 'new' | null>(null);
  const done = (action: Promise<void>, title: string) =>
    action
      .then(() => toast({ title }))
      .catch((error) => toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }));

  return (
    <section aria-labelledby="licences-heading" className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="licences-heading" className="font-semibold">
          Licences of {brandName}
        </h4>
        <Button size="sm" variant="outline" onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          Add a licence
        </Button>
      </div>
      {licences.isPending ? (
        <Skeleton className="h-16" />
      ) : licences.isError ? (
        <p className="text-destructive">{errorText(licences.error)}</p>
      ) : licences.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No licence on file.</p>
      ) : (
        <ul className="grid gap-2">
          {licences.data.map((licence) => (
            <LicenceRow
              key={licence.id}
              licence={licence}
              busy={update.isPending || remove.isPending}
              onEdit={() => setEditing(licence)}
              onMakePrimary={() =>
                void done(
                  update.mutateAsync({ id: licence.id, input: { is_primary: true } }),
                  'Primary licence set',
                )
              }
              onRemove={() => done(remove.mutateAsync(licence.id), 'Licence removed')}
            />
          ))}
        </ul>
      )}
      {editing ? (
        <LicenceForm
          key={editing === 'new' ? 'new' : editing.id}
          brandId={brandId}
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
