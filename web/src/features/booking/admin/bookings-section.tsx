import { Route, Routes } from 'react-router';
import { BookingDetail } from './booking-detail.tsx';
import { BookingsList } from './bookings-list.tsx';

/** /admin/bookings (list) and /admin/bookings/<id> (detail): the admin dashboard's bookings section. */
export function BookingsSection() {
  return (
    <section aria-labelledby="bookings-heading" className="grid gap-4">
      <div>
        <h2 id="bookings-heading" className="font-semibold text-xl">
          Bookings
        </h2>
        <p className="mt-1 text-muted-foreground">
          Promo-session requests: confirm or decline new ones, mark sessions completed, keep internal notes.
        </p>
      </div>
      <Routes>
        <Route index element={<BookingsList />} />
        <Route path=":id" element={<BookingDetail />} />
      </Routes>
    </section>
  );
}
