import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { AdminProduct } from './admin-product.ts';
import { useUpdateProduct } from './api/update-product.ts';

/** One product of the admin list: its badges, Edit, and Archive (asked first) or Restore. */
export function ProductRow({ product, onEdit }: { product: AdminProduct; onEdit: () => void }) {
  const update = useUpdateProduct();
  const setArchived = async (archived_at: string | null, done: string | null, failed: string) => {
    try {
      await update.mutateAsync({ id: product.id, input: { archived_at } });
      if (done) toast({ title: done });
    } catch (error) {
      toast({ variant: 'destructive', title: failed, description: errorText(error) });
    }
  };

  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
      data-testid="admin-product"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{product.name}</span>
        <Badge variant="secondary">{product.category}</Badge>
        {product.is_sample ? <Badge variant="outline">Sample</Badge> : null}
        {product.archived_at ? <Badge variant="outline">Archived</Badge> : null}
      </div>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={onEdit}>
          Edit<span className="sr-only"> {product.name}</span>
        </Button>
        {product.archived_at ? (
          <Button size="sm" variant="outline" onClick={() => void setArchived(null, null, 'Not restored')}>
            Restore<span className="sr-only"> {product.name}</span>
          </Button>
        ) : (
          <ConfirmButton
            size="sm"
            variant="outline"
            title={`Archive ${product.name}?`}
            description="It leaves the lists and takes no new votes or comments. You can restore it later."
            confirmLabel="Archive"
            destructive
            onConfirm={() => setArchived(new Date().toISOString(), 'Product archived', 'Not archived')}
          >
            Archive<span className="sr-only"> {product.name}</span>
          </ConfirmButton>
        )}
      </div>
    </li>
  );
}
