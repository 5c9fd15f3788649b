import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useLocation, useParams } from 'react-router';
import { DetailField, DetailShell } from '#web/components/layout/detail-shell.tsx';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { type AdminBooking, formatBookingDate } from '../admin-bookings.ts';
import { slotWithZone } from '../booking.ts';
import { adminBookingQueryOptions } from './api/get-admin-booking.ts';
import { BookingNote } from './booking-note.tsx';
import { BookingStatusActions } from './booking-status-actions.tsx';
import { BookingStatusBadge } from './booking-status-badge.tsx';

function BookingView({ booking }: { booking: AdminBooking }) {
  return (
    <article aria-labelledby="booking-title" className="grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id="booking-title" className="font-semibold text-lg">
          {booking.productName} — {booking.fullName}
        </h3>
        <BookingStatusBadge status={booking.status} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Request" className="rounded-xl border p-5">
          <dl className="grid gap-4 sm:grid-cols-2">
            <DetailField
              label="Session"
              value={`${formatBookingDate(booking.bookingDate)} at ${slotWithZone(booking.bookingTime)}`}
            />
            <DetailField label="Category" value={booking.productCategory} />
            <DetailField label="Full name" value={booking.fullName} />
            <DetailField label="Email" value={booking.email} />
            <DetailField label="Phone" value={booking.phone} />
            <DetailField label="Company" value={booking.companyName} />
            <DetailField label="Account" value={booking.userId ? 'Member' : 'Visitor (no account)'} />
            <DetailField label="Requested" value={new Date(booking.createdAt).toLocaleString('en-US')} />
          </dl>
          <dl className="mt-4 grid gap-4">
            <DetailField label="Product description" value={booking.productDescription} />
            <DetailField label="Special requests" value={booking.specialRequests} />
          </dl>
        </section>
        <section aria-label="Handling" className="grid content-start gap-5 rounded-xl border p-5">
          <BookingStatusActions booking={booking} />
          <BookingNote key={booking.adminNote ?? ''} booking={booking} />
        </section>
      </div>
    </article>
  );
}

/** One booking: the request, its status actions (each confirmed first) and the internal note. */
export function BookingDetail() {
  const { id = '' } = useParams();
  const { search } = useLocation();
  const booking = useQuery(adminBookingQueryOptions(id));
  return (
    <DetailShell
      back={{ to: `..${search}`, label: 'All bookings' }}
      what="booking"
      query={booking}
      notFound={
        <EmptyState icon={SearchX} title="Booking not found">
          There is no booking with this address. It may have been deleted with its member's account.
        </EmptyState>
      }
    >
      {(found) => <BookingView booking={found} />}
    </DetailShell>
  );
}
