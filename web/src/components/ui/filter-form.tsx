import { Search } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { PRODUCT_CATEGORIES } from '#web/lib/product-categories.ts';
import type { SearchBox } from '#web/lib/use-url-filters.ts';
import { cn } from '#web/lib/utils.ts';
import { Input } from './input.tsx';
import { Label } from './label.tsx';
import { NativeSelect } from './native-select.tsx';

/**
 * A directory's filters (lib/use-url-filters.ts keeps them in the address): submitting writes the search
 * box at once; the other fields write as they change.
 */
export function FilterForm({
  label,
  className,
  onSubmit,
  children,
}: {
  /** The form's accessible name ("Search and filter brands"). */
  label: string;
  className?: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A labelled filter: the label above its control. */
export function FilterField({
  id,
  label,
  className,
  children,
}: {
  /** The control's id. */
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** The search box, with its magnifier: what is typed shows at once, the address follows (SearchBox). */
export function SearchFilter({
  id,
  label,
  box,
  className,
  ...input
}: { id: string; label: string; box: SearchBox; className?: string } & Pick<
  ComponentProps<'input'>,
  'maxLength' | 'placeholder'
>) {
  return (
    <FilterField id={id} label={label} className={className}>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input id={id} type="search" className="pl-9" value={box.value} onChange={box.onChange} {...input} />
      </div>
    </FilterField>
  );
}

/** A filter chosen from a list: `all` names the empty choice (no filter), when there is one. */
export function SelectFilter({
  id,
  label,
  value,
  onChange,
  all,
  options,
  className,
}: {
  id: string;
  label: string;
  /** The chosen value; null or '' is the empty choice. */
  value: string | null;
  onChange: (value: string) => void;
  all?: string;
  /** Each choice's value and its text. */
  options: readonly (readonly [value: string, text: string])[];
  className?: string;
}) {
  return (
    <FilterField id={id} label={label} className={className}>
      <NativeSelect id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        {all !== undefined ? <option value="">{all}</option> : null}
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </NativeSelect>
    </FilterField>
  );
}

const CATEGORY_OPTIONS = PRODUCT_CATEGORIES.map((category) => [category, category] as const);

/** The product catalogue's categories (lib/product-categories.ts), or all of them. */
export function CategoryFilter(props: {
  id: string;
  value: string | null;
  onChange: (value: string) => void;
}) {
  return <SelectFilter label="Category" all="All categories" options={CATEGORY_OPTIONS} {...props} />;
}

/**
 * A text filter written when the member leaves the field (the address changes once, not at each key);
 * the field starts again from the address whenever the address changes it.
 */
export function TextFilter({
  id,
  label,
  value,
  onChange,
  ...input
}: {
  id: string;
  label: string;
  value: string;
  /** The text as left, without spaces around it. */
  onChange: (value: string) => void;
} & Pick<ComponentProps<'input'>, 'maxLength' | 'placeholder' | 'inputMode'>) {
  return (
    <FilterField id={id} label={label}>
      <Input
        id={id}
        defaultValue={value}
        key={`${id}-${value}`}
        onBlur={(event) => onChange(event.target.value.trim())}
        {...input}
      />
    </FilterField>
  );
}

/** A date filter (yyyy-MM-dd; empty: no bound), written as it changes. */
export function DateFilter({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FilterField id={id} label={label}>
      <Input id={id} type="date" value={value} onChange={(event) => onChange(event.target.value)} />
    </FilterField>
  );
}

/** A filter that is on or off, its text beside the box. */
export function CheckFilter({
  label,
  checked,
  onChange,
  className,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <label className={cn('flex items-center gap-2 text-sm', className)}>
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}
