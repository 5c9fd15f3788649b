import { Route, Routes } from 'react-router';
import { SectionShell } from '#web/components/layout/detail-shell.tsx';
import { BookingDetail } from './booking-detail.tsx';
import { BookingsList } from './bookings-list.tsx';

/** /admin/bookings (list) and /admin/bookings/<id> (detail): the admin dashboard's bookings section. */
export function BookingsSection() {
  return (
    <SectionShell
      id="bookings-heading"
      title="Bookings"
      description="Promo-session requests: confirm or decline new ones, mark sessions completed, keep internal notes."
    >
      <Routes>
        <Route index element={<BookingsList />} />
        <Route path=":id" element={<BookingDetail />} />
      </Routes>
    </SectionShell>
  );
}
