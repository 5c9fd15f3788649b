import { Button } from '#web/components/ui/button.tsx';
import {
  DateFilter,
  FilterForm,
  SearchFilter,
  SelectFilter,
  TextFilter,
} from '#web/components/ui/filter-form.tsx';
import type { UrlFilterState } from '#web/lib/use-url-filters.ts';
import { hasFilters } from '../database.ts';
import type { ReportSearchFilters } from './report-search-filters.ts';

const SORT_OPTIONS = [
  ['newest', 'Newest'],
  ['amount', 'Amount'],
] as const;

/**
 * The Scammer Network's search (product §scammer-database): the name box writes the address as the
 * member types; location and amounts when they leave the field; sort and dates when they change.
 */
export function ReportSearchForm({ filters, set, clear, search }: UrlFilterState<ReportSearchFilters>) {
  return (
    <FilterForm
      label="Search reports"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
      onSubmit={search.submit}
    >
      <SearchFilter
        id="scam-search"
        label="Name, business, phone, email, website or handle"
        className="sm:col-span-2"
        box={search}
        maxLength={200}
        placeholder="e.g. Green Valley Supply"
      />
      <TextFilter
        id="scam-location"
        label="Location"
        maxLength={100}
        value={filters.location}
        onChange={(location) => set({ location })}
        placeholder="City or state"
      />
      <SelectFilter
        id="scam-sort"
        label="Sort by"
        value={filters.sort}
        onChange={(sort) => set({ sort })}
        options={SORT_OPTIONS}
      />
      <TextFilter
        id="scam-min"
        label="Amount from ($)"
        inputMode="decimal"
        value={filters.amountMin}
        onChange={(amountMin) => set({ amountMin })}
      />
      <TextFilter
        id="scam-max"
        label="Amount to ($)"
        inputMode="decimal"
        value={filters.amountMax}
        onChange={(amountMax) => set({ amountMax })}
      />
      <DateFilter
        id="scam-from"
        label="Incident from"
        value={filters.from}
        onChange={(from) => set({ from })}
      />
      <DateFilter id="scam-to" label="Incident to" value={filters.to} onChange={(to) => set({ to })} />
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit">Search</Button>
        {hasFilters(filters) ? (
          <Button type="button" variant="outline" onClick={() => clear()}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </FilterForm>
  );
}
