import { Plus } from 'lucide-react';
import { useState } from 'react';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { Button } from '#web/components/ui/button.tsx';
import type { Brand } from '../types.ts';
import { BrandClaims } from './brand-claims.tsx';
import { BrandForm } from './brand-form.tsx';
import { BrandList } from './brand-list.tsx';
import { LicencesPanel } from './licences-panel.tsx';
import { MergeDialog } from './merge-dialog.tsx';

/** /admin/brands: the brand directory (create, edit, verify a licence, archive, merge, claims). */
export function BrandsSection() {
  const [editing, setEditing] = useState<Brand | 'new' | null>(null);
  const [merging, setMerging] = useState<Brand | null>(null);

  return (
    <section aria-labelledby="brands-heading" className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="brands-heading" className="font-semibold text-xl">
            Brands
          </h2>
          <p className="text-muted-foreground">
            The brand directory: profiles, licences and representatives.
          </p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          New brand
        </Button>
      </div>
      <SampleRetirementNotice area="brands" />
      {editing ? (
        <BrandForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {editing && editing !== 'new' ? (
        <LicencesPanel key={editing.id} brandId={editing.id} brandName={editing.name} />
      ) : null}
      <BrandClaims />
      <BrandList onEdit={setEditing} onMerge={setMerging} />
      <MergeDialog from={merging} onClose={() => setMerging(null)} />
    </section>
  );
}
