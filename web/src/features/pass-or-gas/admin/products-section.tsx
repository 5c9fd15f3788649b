import { useQuery } from '@tanstack/react-query';
import { Package, Plus } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { refusalNote, refusalOf } from '#web/lib/refusals.ts';
import { CATEGORIES, type Category, STRAIN_LABELS, STRAIN_TYPES, type StrainType } from '../ranking.ts';
import {
  type AdminProduct,
  adminProductsQueryOptions,
  brandChoicesQueryOptions,
  type ProductInput,
  uploadProductImage,
  useProductWrite,
} from './admin-api.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const EMPTY: ProductInput = {
  name: '',
  brand_id: null,
  category: 'Flower',
  strain_type: 'n/a',
  thc_min: null,
  thc_max: null,
  cbd_min: null,
  cbd_max: null,
  image_url: null,
  description: '',
};

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

function ProductForm({ initial, onDone }: { initial: AdminProduct | null; onDone: () => void }) {
  const [values, setValues] = useState<ProductInput>(initial ? { ...initial } : EMPTY);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** The field a refusal concerns (decision 180), by column: shown under it, the input marked invalid. */
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof ProductInput, string>>>({});
  const brands = useQuery(brandChoicesQueryOptions());
  const write = useProductWrite();
  const set = (patch: Partial<ProductInput>) => {
    setValues((current) => ({ ...current, ...patch }));
    setFieldErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as (keyof ProductInput)[]) delete next[key];
      // The order rules concern both ends of a range: changing either clears them.
      if ('thc_min' in patch) delete next.thc_max;
      if ('cbd_min' in patch) delete next.cbd_max;
      return next;
    });
  };
  const invalid = (key: keyof ProductInput) =>
    fieldErrors[key]
      ? { 'aria-invalid': true as const, 'aria-describedby': `product-${key}-error` }
      : { 'aria-invalid': undefined };
  const errorOf = (key: keyof ProductInput) =>
    fieldErrors[key] ? (
      <p id={`product-${key}-error`} className="text-destructive text-sm dark:text-red-400">
        {fieldErrors[key]}
      </p>
    ) : null;

  async function pickImage(file: File | undefined) {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      setProblem('File type not allowed. Only JPEG, PNG, WebP, and GIF files are permitted.');
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      setProblem('File size too large. Maximum size is 5MB.');
      return;
    }
    setProblem(null);
    setProgress(0);
    try {
      const url = await uploadProductImage(file, setProgress);
      set({ image_url: url });
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setProgress(null);
    }
  }

  const formRef = useRef<HTMLFormElement>(null);
  /**
   * After the field's error renders, the keyboard moves to it: an effect of the committed render, so a
   * slow device cannot look for the marked field before React has drawn it (an animation frame could).
   */
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);
  const focusInvalid = () => setFocusRequest((count) => count + 1);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (values.name.trim().length === 0) {
      setFieldErrors({ name: 'Name is required.' });
      setProblem(null);
      focusInvalid();
      return;
    }
    const input = { ...values, name: values.name.trim() };
    write.mutate(initial ? { kind: 'update', id: initial.id, input } : { kind: 'create', input }, {
      onSuccess: () => {
        toast({ title: initial ? 'Product saved' : 'Product created' });
        onDone();
      },
      onError: (error) => {
        const refusal = refusalOf(error);
        const field = refusal?.field && refusal.field in EMPTY ? (refusal.field as keyof ProductInput) : null;
        setFieldErrors(refusal && field ? { [field]: refusal.message } : {});
        setProblem(refusal ? refusalNote(refusal, field !== null) : errorText(error));
        if (field) focusInvalid();
      },
    });
  }

  const range = (label: string, min: 'thc_min' | 'cbd_min', max: 'thc_max' | 'cbd_max') => (
    <div className="grid grid-cols-2 gap-2">
      {([min, max] as const).map((key) => (
        <div key={key} className="grid gap-1.5">
          <Label htmlFor={`product-${key}`}>
            {label} {key.endsWith('min') ? 'from' : 'to'} (%)
          </Label>
          <Input
            id={`product-${key}`}
            type="number"
            min={0}
            max={100}
            step={0.1}
            value={values[key] ?? ''}
            onChange={(event) => set({ [key]: numberOrNull(event.target.value) })}
            {...invalid(key)}
          />
          {errorOf(key)}
        </div>
      ))}
    </div>
  );

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      className="grid gap-4 rounded-lg border p-4"
      aria-labelledby="product-form-title"
    >
      <h3 id="product-form-title" className="font-semibold">
        {initial ? `Edit ${initial.name}` : 'New product'}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor="product-name">Name</Label>
          <Input
            id="product-name"
            maxLength={200}
            value={values.name}
            onChange={(event) => set({ name: event.target.value })}
            {...invalid('name')}
          />
          {errorOf('name')}
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="product-brand">Brand</Label>
          <NativeSelect
            id="product-brand"
            value={values.brand_id ?? ''}
            onChange={(event) => set({ brand_id: event.target.value || null })}
          >
            <option value="">No brand</option>
            {(brands.data ?? []).map((brand) => (
              <option key={brand.id} value={brand.id}>
                {brand.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="product-category">Category</Label>
          <NativeSelect
            id="product-category"
            value={values.category}
            onChange={(event) => set({ category: event.target.value as Category })}
            {...invalid('category')}
          >
            {CATEGORIES.map((category) => (
              <option key={category}>{category}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="product-strain">Strain type</Label>
          <NativeSelect
            id="product-strain"
            value={values.strain_type}
            onChange={(event) => set({ strain_type: event.target.value as StrainType })}
            {...invalid('strain_type')}
          >
            {STRAIN_TYPES.map((strain) => (
              <option key={strain} value={strain}>
                {STRAIN_LABELS[strain]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {range('THC', 'thc_min', 'thc_max')}
        {range('CBD', 'cbd_min', 'cbd_max')}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="product-description">Description</Label>
        <Textarea
          id="product-description"
          maxLength={4000}
          value={values.description}
          onChange={(event) => set({ description: event.target.value })}
          {...invalid('description')}
        />
        {errorOf('description')}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="product-image">Image (JPEG, PNG, WebP or GIF, at most 5 MB)</Label>
        <Input
          id="product-image"
          type="file"
          accept={IMAGE_TYPES.join(',')}
          onChange={(event) => void pickImage(event.target.files?.[0])}
          {...invalid('image_url')}
        />
        {errorOf('image_url')}
        {progress !== null ? (
          <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
        ) : null}
        {values.image_url ? (
          <img
            src={values.image_url}
            alt=""
            className="h-24 w-24 rounded-md object-cover"
            data-testid="product-image-preview"
          />
        ) : null}
      </div>
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={write.isPending || progress !== null}>
          {write.isPending ? 'Saving…' : initial ? 'Save product' : 'Create product'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** /admin/products: the Pass or Gas catalogue (create, edit, image upload, archive). */
export function ProductsSection() {
  const products = useQuery(adminProductsQueryOptions());
  const write = useProductWrite();
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);
  const [archiving, setArchiving] = useState<AdminProduct | null>(null);

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
      {products.isPending ? (
        <Skeleton className="h-40" />
      ) : products.isError ? (
        <p className="text-destructive">{errorText(products.error)}</p>
      ) : products.data.length === 0 ? (
        <EmptyState icon={Package} title="No products yet" headingLevel={3}>
          Create the first product; the sample catalogue then disappears.
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {products.data.map((product) => (
            <li
              key={product.id}
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
                <Button size="sm" variant="outline" onClick={() => setEditing(product)}>
                  Edit<span className="sr-only"> {product.name}</span>
                </Button>
                {product.archived_at ? (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() =>
                      write.mutate(
                        { kind: 'update', id: product.id, input: { archived_at: null } },
                        {
                          onError: (error) =>
                            toast({
                              variant: 'destructive',
                              title: 'Not restored',
                              description: errorText(error),
                            }),
                        },
                      )
                    }
                  >
                    Restore<span className="sr-only"> {product.name}</span>
                  </Button>
                ) : (
                  <Button size="sm" variant="outline" onClick={() => setArchiving(product)}>
                    Archive<span className="sr-only"> {product.name}</span>
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <AlertDialog open={archiving !== null} onOpenChange={(open) => (open ? null : setArchiving(null))}>
        <AlertDialogContent>
          <AlertDialogTitle>Archive {archiving?.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            It leaves the lists and takes no new votes or comments. You can restore it later.
          </AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant="destructive"
              onClick={() => {
                if (archiving) {
                  write.mutate(
                    { kind: 'update', id: archiving.id, input: { archived_at: new Date().toISOString() } },
                    {
                      onSuccess: () => toast({ title: 'Product archived' }),
                      onError: (error) =>
                        toast({
                          variant: 'destructive',
                          title: 'Not archived',
                          description: errorText(error),
                        }),
                    },
                  );
                }
                setArchiving(null);
              }}
            >
              Archive
            </Button>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
