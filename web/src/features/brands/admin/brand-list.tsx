import { useQuery } from '@tanstack/react-query';
import { Store } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { Brand } from '../types.ts';
import { ADMIN_BRANDS_SHOWN, adminBrandsQueryOptions } from './api/get-admin-brands.ts';
import { useUpdateBrand } from './api/update-brand.ts';
import { ShownVerification } from './shown-verification.tsx';

interface BrandActions {
  onEdit: (brand: Brand) => void;
  onMerge: (brand: Brand) => void;
  onArchive: (brand: Brand, archivedAt: string | null) => void;
}

/** One brand of the list: its verification as visitors see it, and edit, merge, archive or restore. */
function BrandRow({ brand, onEdit, onMerge, onArchive }: BrandActions & { brand: Brand }) {
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
      data-testid="admin-brand"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Link className="font-medium hover:underline" to={`/brand-directory/${brand.slug}`}>
          {brand.name}
        </Link>
        <ShownVerification
          verification={brand.verification}
          shown={brand.shown_verification}
          checkedAt={brand.verified_at}
        />
        {brand.is_sample ? <Badge variant="outline">Sample</Badge> : null}
        {brand.archived_at ? <Badge variant="outline">Archived</Badge> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => onEdit(brand)}>
          Edit<span className="sr-only"> {brand.name}</span>
        </Button>
        {brand.archived_at ? (
          <Button size="sm" variant="outline" onClick={() => onArchive(brand, null)}>
            Restore<span className="sr-only"> {brand.name}</span>
          </Button>
        ) : (
          <>
            <Button size="sm" variant="outline" onClick={() => onMerge(brand)}>
              Merge<span className="sr-only"> {brand.name}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={() => onArchive(brand, new Date().toISOString())}>
              Archive<span className="sr-only"> {brand.name}</span>
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

/** The admin's brand list: find by name, live or archived brands (the first 100 by name, and says so). */
export function BrandList({ onEdit, onMerge }: Omit<BrandActions, 'onArchive'>) {
  const [q, setQ] = useState('');
  const [archived, setArchived] = useState(false);
  const brands = useQuery(adminBrandsQueryOptions(q, archived));
  const update = useUpdateBrand();
  const onArchive = (brand: Brand, archivedAt: string | null) =>
    update.mutate(
      { id: brand.id, input: { archived_at: archivedAt } },
      {
        onSuccess: () => toast({ title: archivedAt ? 'Brand archived' : 'Brand restored' }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }),
      },
    );

  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="admin-brand-search">Find a brand</Label>
          <Input
            id="admin-brand-search"
            type="search"
            maxLength={100}
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={archived}
            onChange={(e) => setArchived(e.target.checked)}
          />
          Show archived brands
        </label>
      </div>
      {brands.isPending ? (
        <Skeleton className="h-40" />
      ) : brands.isError ? (
        <p className="text-destructive">{errorText(brands.error)}</p>
      ) : brands.data.length === 0 ? (
        <EmptyState icon={Store} title={q ? 'No brands match' : 'No brands yet'} headingLevel={3}>
          {q ? 'Try another name.' : 'Create the first brand; the directory’s sample brands then disappear.'}
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-2">
            {brands.data.map((brand) => (
              <BrandRow
                key={brand.id}
                brand={brand}
                onEdit={onEdit}
                onMerge={onMerge}
                onArchive={onArchive}
              />
            ))}
          </ul>
          {brands.data.length === ADMIN_BRANDS_SHOWN ? (
            <p className="text-muted-foreground text-sm" data-testid="admin-brands-cut">
              The first {ADMIN_BRANDS_SHOWN} brands by name are shown. Type a name to find the others.
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
