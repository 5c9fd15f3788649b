import { Search, X } from 'lucide-react';
import { useEffect, useId } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { type NewsFilters, SEARCH_MAX_LENGTH } from '../news-feed.ts';

interface FiltersProps {
  filters: NewsFilters;
  onChange: (filters: NewsFilters) => void;
}

/** The search box: what is typed is searched when sent; a new address (Back, Clear search) refills it. */
export function SearchBox({ filters, onChange }: FiltersProps) {
  const form = useForm({ q: filters.q }, { maxLength: { q: SEARCH_MAX_LENGTH } });
  const { setValues } = form;
  const box = form.field('q');
  const inputId = useId();
  useEffect(() => setValues({ q: filters.q }), [filters.q, setValues]);
  const submit = form.handleSubmit(async ({ q }) => {
    onChange({ ...filters, q: q.trim(), sort: q.trim() ? filters.sort : 'newest' });
  });
  return (
    <search className="w-full sm:max-w-md">
      <form ref={form.ref} onSubmit={submit} className="flex w-full gap-2">
        <label htmlFor={inputId} className="sr-only">
          Search news
        </label>
        <div className="relative flex-1">
          <Search
            aria-hidden="true"
            className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-muted-foreground"
          />
          <Input
            id={inputId}
            type="search"
            name={box.name}
            value={box.value}
            maxLength={box.maxLength}
            onChange={box.onChange}
            placeholder="Search headlines and summaries"
            className="pl-9"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
    </search>
  );
}

/** Newest or most relevant first: only while searching. */
export function SortSelect({ filters, onChange }: FiltersProps) {
  const sortId = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={sortId}>Sort by</label>
      <NativeSelect
        id={sortId}
        value={filters.sort}
        onChange={(event) =>
          onChange({ ...filters, sort: event.target.value === 'relevance' ? 'relevance' : 'newest' })
        }
        className="w-auto"
      >
        <option value="newest">Newest</option>
        <option value="relevance">Most relevant</option>
      </NativeSelect>
    </div>
  );
}

/** What is searched for, with a way back to the whole feed. */
export function SearchSummary({ filters, onChange }: FiltersProps) {
  return (
    <p className="flex items-center gap-2 text-muted-foreground text-sm" aria-live="polite">
      Results for “{filters.q}”
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        onClick={() => onChange({ ...filters, q: '', sort: 'newest' })}
      >
        <X aria-hidden="true" className="size-3.5" /> Clear search
      </button>
    </p>
  );
}
