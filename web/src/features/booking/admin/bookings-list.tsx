import { useQuery } from '@tanstack/react-query';
import { CalendarX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Pager, QueryState } from '#web/components/layout/list-states.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import {
  BOOKING_STATUSES,
  type BookingFilters,
  type BookingSort,
  bookingFiltersSearch,
  formatBookingDate,
  PAGE_SIZE,
  pageCount,
  parseBookingFilters,
  SORTS,
  STATUS_LABELS,
} from '../admin-bookings.ts';
import { adminBookingsQueryOptions } from '../api/get-admin-bookings.ts';
import { PRODUCT_CATEGORIES, slotWithZone } from '../booking.ts';
import { BookingStatusBadge } from './booking-status-badge.tsx';

function formatRequested(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The list of promo-session requests: filters, sorting and page in the URL, so views can be shared and reloaded. */
export function BookingsList() {
  const [params, setParams] = useSearchParams();
  const filters = parseBookingFilters(params);
  const list = useQuery(adminBookingsQueryOptions(filters));
  const change = (patch: Partial<BookingFilters>) => {
    const next = { ...filters, page: 1, ...patch };
    setParams(new URLSearchParams(bookingFiltersSearch(next)), { replace: false });
  };
  const total = list.data?.total ?? 0;
  const pages = pageCount(total);
  const filtered = filters.status !== null || filters.date !== null || filters.category !== null;

  return (
    <div className="grid gap-5">
      <fieldset className="grid gap-3 rounded-xl border p-4 sm:grid-cols-2 xl:grid-cols-4">
        <legend className="px-1 font-medium text-sm">Filter and sort</legend>
        <div className="grid gap-1.5">
          <Label htmlFor="bookings-status">Status</Label>
          <NativeSelect
            id="bookings-status"
            value={filters.status ?? ''}
            onChange={(event) => change({ status: (event.target.value || null) as BookingFilters['status'] })}
          >
            <option value="">All statuses</option>
            {BOOKING_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="bookings-date">Session date</Label>
          <Input
            id="bookings-date"
            type="date"
            value={filters.date ?? ''}
            onChange={(event) => change({ date: event.target.value || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="bookings-category">Category</Label>
          <NativeSelect
            id="bookings-category"
            value={filters.category ?? ''}
            onChange={(event) => change({ category: event.target.value || null })}
          >
            <option value="">All categories</option>
            {PRODUCT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="bookings-sort">Sort by</Label>
          <NativeSelect
            id="bookings-sort"
            value={filters.sort}
            onChange={(event) => change({ sort: event.target.value as BookingSort })}
          >
            {Object.entries(SORTS).map(([key, sort]) => (
              <option key={key} value={key}>
                {sort.label}
              </option>
            ))}
          </NativeSelect>
        </div>
      </fieldset>

      {list.isPending || list.isError ? (
        <QueryState what="bookings" query={list} />
      ) : list.data.rows.length === 0 ? (
        <EmptyState icon={CalendarX} title={filtered ? 'No bookings match these filters' : 'No bookings yet'}>
          {filtered
            ? 'Try another status, date or category, or clear the filters.'
            : 'Promo-session requests made on the booking page appear here.'}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">
                Bookings, {SORTS[filters.sort].label.toLowerCase()}, page {filters.page} of {pages}
              </caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Booker
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Product
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Session
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Requested
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((row) => (
                  <tr key={row.id} className="border-t">
                    <td className="px-4 py-3">
                      <Link
                        to={`${row.id}${bookingFiltersSearch(filters)}`}
                        className="font-medium text-primary underline-offset-4 hover:underline"
                      >
                        {row.fullName}
                      </Link>
                      <div className="text-muted-foreground text-xs">{row.email}</div>
                    </td>
                    <td className="px-4 py-3">
                      {row.productName}
                      <div className="text-muted-foreground text-xs">{row.productCategory}</div>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3">
                      {formatBookingDate(row.bookingDate)}
                      <div className="text-muted-foreground text-xs">{slotWithZone(row.bookingTime)}</div>
                    </td>
                    <td className="px-4 py-3">
                      <BookingStatusBadge status={row.status} />
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-muted-foreground">
                      {formatRequested(row.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="bookings"
            summary={`${total.toLocaleString('en-US')} booking${total === 1 ? '' : 's'} · page ${filters.page} of ${pages} (${PAGE_SIZE} per page)`}
            page={filters.page}
            pages={pages}
            onPage={(page) => change({ page })}
          />
        </>
      )}
    </div>
  );
}
