import type { ComponentProps } from 'react';
import { Input } from '#web/components/ui/input.tsx';
import type { Form } from '#web/lib/use-form.ts';
import { ProblemField } from '../components/problem-field.tsx';
import { BRAND_CATEGORIES } from '../types.ts';
import type { BrandValues } from './brand-values.ts';

/** The brand's name, address, where it is and its website (a new brand's logo address too). */
export function BrandProfileFields({ form, isNew }: { form: Form<BrandValues, never>; isNew: boolean }) {
  const text = (key: keyof BrandValues, id: string, label: string, extra?: ComponentProps<typeof Input>) => (
    <ProblemField id={id} label={label} field={form.field(key)}>
      {(props) => <Input {...extra} {...props} />}
    </ProblemField>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {text('name', 'brand-name', 'Name')}
      {text('slug', 'brand-slug', 'Address (slug; empty: made from the name)')}
      {text('city', 'brand-city', 'City')}
      {text('states', 'brand-states', 'States (two-letter codes, comma-separated)')}
      {isNew
        ? text('logo_url', 'brand-logo', 'Logo address (https://…; upload a file after creating the brand)', {
            inputMode: 'url',
          })
        : null}
      {text('website', 'brand-website', 'Website', { inputMode: 'url' })}
    </div>
  );
}

/** The brand's product categories (the catalogue's, lib/product-categories.ts), as checkboxes. */
export function CategoryChecks({
  value,
  onChange,
}: {
  value: string[];
  onChange: (value: string[]) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 font-medium text-sm">Categories</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {BRAND_CATEGORIES.map((category) => (
          <label key={category} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={value.includes(category)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...value, category] : value.filter((chosen) => chosen !== category),
                )
              }
            />
            {category}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
