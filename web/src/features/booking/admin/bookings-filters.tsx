import { CategoryFilter, DateFilter, SelectFilter } from '#web/components/ui/filter-form.tsx';
import { sortOptions } from '#web/components/ui/paged-table.tsx';
import {
  BOOKING_STATUSES,
  type BookingFilters,
  type BookingSort,
  SORTS,
  STATUS_LABELS,
} from '../admin-bookings.ts';

/** The booking list's filters and sorting, applied as chosen. */
export function BookingsFilters({
  filters,
  change,
}: {
  filters: BookingFilters;
  change: (patch: Partial<BookingFilters>) => void;
}) {
  return (
    <fieldset className="grid gap-3 rounded-xl border p-4 sm:grid-cols-2 xl:grid-cols-4">
      <legend className="px-1 font-medium text-sm">Filter and sort</legend>
      <SelectFilter
        id="bookings-status"
        label="Status"
        value={filters.status}
        onChange={(value) => change({ status: (value || null) as BookingFilters['status'] })}
        all="All statuses"
        options={BOOKING_STATUSES.map((status) => [status, STATUS_LABELS[status]])}
      />
      <DateFilter
        id="bookings-date"
        label="Session date"
        value={filters.date ?? ''}
        onChange={(value) => change({ date: value || null })}
      />
      <CategoryFilter
        id="bookings-category"
        value={filters.category}
        onChange={(value) => change({ category: value || null })}
      />
      <SelectFilter
        id="bookings-sort"
        label="Sort by"
        value={filters.sort}
        onChange={(value) => change({ sort: value as BookingSort })}
        options={sortOptions(SORTS)}
      />
    </fieldset>
  );
}
