import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { CATEGORIES, STRAIN_LABELS, STRAIN_TYPES } from '../ranking.ts';
import {
  type AdminProduct,
  PRODUCT_MAX_LENGTH,
  type ProductValues,
  productInput,
  productProblems,
  productValues,
} from './admin-product.ts';
import { useCreateProduct } from './api/create-product.ts';
import { brandChoicesQueryOptions } from './api/get-brand-choices.ts';
import { useUpdateProduct } from './api/update-product.ts';
import { ImageField, RangeFields } from './product-form-fields.tsx';

/** A new product, or a product's changes: a refusal of the database shows at its field (decision 180). */
export function ProductForm({ initial, onDone }: { initial: AdminProduct | null; onDone: () => void }) {
  const form = useForm<ProductValues>(productValues(initial), { maxLength: PRODUCT_MAX_LENGTH });
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const brands = useQuery(brandChoicesQueryOptions());
  const create = useCreateProduct();
  const update = useUpdateProduct();

  const submit = form.handleSubmit(async (values) => {
    if (form.showErrors(productProblems(values))) {
      setProblem(null);
      return;
    }
    const input = productInput(values);
    try {
      await (initial ? update.mutateAsync({ id: initial.id, input }) : create.mutateAsync(input));
      toast({ title: initial ? 'Product saved' : 'Product created' });
      onDone();
    } catch (error) {
      setProblem(form.showRefusal(error) ?? errorText(error));
    }
  });

  return (
    <form
      ref={form.ref}
      onSubmit={submit}
      className="grid gap-4 rounded-lg border p-4"
      aria-labelledby="product-form-title"
    >
      <h3 id="product-form-title" className="font-semibold">
        {initial ? `Edit ${initial.name}` : 'New product'}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="product-name" label="Name" {...form.field('name')} />
        <SelectField id="product-brand" label="Brand" {...form.field('brandId')}>
          <option value="">No brand</option>
          {(brands.data ?? []).map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="product-category" label="Category" {...form.field('category')}>
          {CATEGORIES.map((category) => (
            <option key={category}>{category}</option>
          ))}
        </SelectField>
        <SelectField id="product-strain" label="Strain type" {...form.field('strainType')}>
          {STRAIN_TYPES.map((strain) => (
            <option key={strain} value={strain}>
              {STRAIN_LABELS[strain]}
            </option>
          ))}
        </SelectField>
        <RangeFields form={form} label="THC" min="thcMin" max="thcMax" />
        <RangeFields form={form} label="CBD" min="cbdMin" max="cbdMax" />
      </div>
      <TextareaField id="product-description" label="Description" {...form.field('description')} />
      <ImageField form={form} onProblem={setProblem} onUploading={setUploading} />
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={form.busy || uploading}>
          {form.busy ? 'Saving…' : initial ? 'Save product' : 'Create product'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
