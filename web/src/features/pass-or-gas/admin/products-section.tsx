import { useQuery } from '@tanstack/react-query';
import { Package, Plus } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import type { AdminProduct } from './admin-product.ts';
import { ADMIN_PRODUCTS_SHOWN, adminProductsQueryOptions } from './api/get-admin-products.ts';
import { ProductForm } from './product-form.tsx';
import { ProductRow } from './product-row.tsx';

/**
 * /admin/products: the Pass or Gas catalogue (create, edit, image upload, archive): the newest 200, or
 * those whose name holds what is typed, archived ones included.
 */
export function ProductsSection() {
  const [q, setQ] = useState('');
  const products = useQuery(adminProductsQueryOptions(q));
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);

  return (
    <section aria-labelledby="products-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="products-heading" className="font-semibold text-xl">
            Products
          </h2>
          <p className="text-muted-foreground">What members vote on in Pass or Gas.</p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          New product
        </Button>
      </div>
      <SampleRetirementNotice area="products" />
      {editing ? (
        <ProductForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <div className="grid max-w-sm gap-1.5">
        <Label htmlFor="admin-product-search">Find a product</Label>
        <Input
          id="admin-product-search"
          type="search"
          maxLength={100}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      {products.isPending ? (
        <Skeleton className="h-40" />
      ) : products.isError ? (
        <p className="text-destructive">{errorText(products.error)}</p>
      ) : products.data.length === 0 ? (
        q.trim() ? (
          <EmptyState icon={Package} title="No products match" headingLevel={3}>
            Try another name.
          </EmptyState>
        ) : (
          <EmptyState icon={Package} title="No products yet" headingLevel={3}>
            Create the first product; the sample catalogue then disappears.
          </EmptyState>
        )
      ) : (
        <>
          <ul className="grid gap-2">
            {products.data.map((product) => (
              <ProductRow key={product.id} product={product} onEdit={() => setEditing(product)} />
            ))}
          </ul>
          {products.data.length === ADMIN_PRODUCTS_SHOWN ? (
            <p className="text-muted-foreground text-sm" data-testid="admin-products-cut">
              {q.trim()
                ? `The newest ${ADMIN_PRODUCTS_SHOWN} matches are shown. Type more of the name to narrow them.`
                : `The newest ${ADMIN_PRODUCTS_SHOWN} products are shown. Type a name to find the others.`}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
