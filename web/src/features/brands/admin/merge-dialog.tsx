import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { Brand } from '../types.ts';
import { ADMIN_BRANDS_SHOWN, adminBrandsQueryOptions } from './api/get-admin-brands.ts';
import { useMergeBrands } from './api/merge-brands.ts';

/**
 * Merges a brand (a duplicate) into the brand to keep, chosen among the live ones: the first 100 by
 * name, or those whose name holds what is typed, so that any brand of a long directory can be chosen.
 */
export function MergeDialog({ from, onClose }: { from: Brand | null; onClose: () => void }) {
  const [q, setQ] = useState('');
  const brands = useQuery({ ...adminBrandsQueryOptions(q, false), enabled: from !== null });
  const [into, setInto] = useState('');
  const choices = (brands.data ?? []).filter((brand) => brand.id !== from?.id);
  const merge = useMergeBrands();
  return (
    <Dialog open={from !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogTitle>Merge {from?.name}</DialogTitle>
        <DialogDescription>
          Its products, linked reports and claims move to the brand you keep, which also gains the licences it
          does not list yet; this one is archived and its address forwards there.
        </DialogDescription>
        <div className="grid gap-1.5">
          <Label htmlFor="merge-find">Find the brand to keep</Label>
          <Input
            id="merge-find"
            maxLength={100}
            type="search"
            value={q}
            aria-describedby="merge-find-hint"
            onChange={(e) => {
              setQ(e.target.value);
              setInto('');
            }}
          />
          <p id="merge-find-hint" className="text-muted-foreground text-sm">
            {brands.isPending
              ? 'Loading brands…'
              : brands.isError
                ? errorText(brands.error)
                : choices.length === 0
                  ? 'No live brand matches.'
                  : brands.data.length === ADMIN_BRANDS_SHOWN
                    ? `The first ${ADMIN_BRANDS_SHOWN} matches by name; type more of the name to narrow them.`
                    : `${choices.length} ${choices.length === 1 ? 'brand matches' : 'brands match'}.`}
          </p>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="merge-into">Brand to keep</Label>
          <NativeSelect id="merge-into" value={into} onChange={(e) => setInto(e.target.value)}>
            <option value="">Choose a brand</option>
            {choices.map((brand) => (
              <option key={brand.id} value={brand.id}>
                {brand.name} ({brand.slug})
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button
          disabled={!into || merge.isPending}
          onClick={() =>
            from &&
            merge.mutate(
              { from: from.id, into },
              {
                onSuccess: () => {
                  toast({ title: 'Brands merged' });
                  setInto('');
                  setQ('');
                  onClose();
                },
                onError: (error) =>
                  toast({ variant: 'destructive', title: 'Not merged', description: errorText(error) }),
              },
            )
          }
        >
          Merge
        </Button>
      </DialogContent>
    </Dialog>
  );
}
