import { useQuery } from '@tanstack/react-query';
import { CalendarX } from 'lucide-react';
import {
  CellNote,
  type Column,
  EmptyList,
  listCaption,
  PagedTable,
  RowLink,
  useListFilters,
} from '#web/components/ui/paged-table.tsx';
import {
  type AdminBooking,
  type BookingFilters,
  bookingFiltersSearch,
  formatBookingDate,
  PAGE_SIZE,
  parseBookingFilters,
  SORTS,
} from '../admin-bookings.ts';
import { slotWithZone } from '../booking.ts';
import { adminBookingsQueryOptions } from './api/get-admin-bookings.ts';
import { BookingStatusBadge } from './booking-status-badge.tsx';
import { BookingsFilters } from './bookings-filters.tsx';

function formatRequested(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The list's columns; a booking's link keeps the list's filters for the way back. */
const columns = (filters: BookingFilters): Column<AdminBooking>[] => [
  {
    header: 'Booker',
    cell: (row) => (
      <>
        <RowLink to={`${row.id}${bookingFiltersSearch(filters)}`}>{row.fullName}</RowLink>
        <CellNote>{row.email}</CellNote>
      </>
    ),
  },
  {
    header: 'Product',
    cell: (row) => (
      <>
        {row.productName}
        <CellNote>{row.productCategory}</CellNote>
      </>
    ),
  },
  {
    header: 'Session',
    className: 'whitespace-nowrap',
    cell: (row) => (
      <>
        {formatBookingDate(row.bookingDate)}
        <CellNote>{slotWithZone(row.bookingTime)}</CellNote>
      </>
    ),
  },
  { header: 'Status', cell: (row) => <BookingStatusBadge status={row.status} /> },
  {
    header: 'Requested',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (row) => formatRequested(row.createdAt),
  },
];

/** The list of promo-session requests: filters, sorting and page in the URL, so views can be shared and reloaded. */
export function BookingsList() {
  const { filters, change, paging } = useListFilters(parseBookingFilters, bookingFiltersSearch);
  const list = useQuery(adminBookingsQueryOptions(filters));
  const filtered = filters.status !== null || filters.date !== null || filters.category !== null;

  return (
    <div className="grid gap-5">
      <BookingsFilters filters={filters} change={change} />
      <PagedTable
        what="bookings"
        query={list}
        empty={
          <EmptyList
            icon={CalendarX}
            filtered={filtered}
            none={['No bookings yet', 'Promo-session requests made on the booking page appear here.']}
            noMatch={[
              'No bookings match these filters',
              'Try another status, date or category, or clear the filters.',
            ]}
          />
        }
        caption={(pages, approximate) =>
          listCaption('Bookings', SORTS[filters.sort].label, filters.page, pages, approximate)
        }
        columns={columns(filters)}
        minWidth="min-w-[40rem]"
        paging={paging(['booking', 'bookings'], PAGE_SIZE, true)}
      />
    </div>
  );
}
