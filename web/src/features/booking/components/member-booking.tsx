import { useQuery } from '@tanstack/react-query';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { bookingContactQueryOptions } from '../api/get-booking-contact.ts';
import { EMPTY_BOOKING } from '../booking.ts';
import { BookingForm } from './booking-form.tsx';
import { MyBookings } from './my-bookings.tsx';

/**
 * The booking page's body: the form — prefilled with a signed-in member's name and email (issue 15),
 * which a successful request brings back — and, for members, "My bookings".
 */
export function BookingPageBody() {
  const { user } = useAuth();
  const userId = useConfirmedUserId();
  const contact = useQuery(bookingContactQueryOptions(userId));
  const prefilled = userId && user && contact.isSuccess;
  return (
    <>
      <BookingForm
        key={prefilled ? `member-${userId}` : 'visitor'}
        initial={prefilled ? { ...EMPTY_BOOKING, fullName: contact.data, email: user.email } : EMPTY_BOOKING}
      />
      {userId ? <MyBookings userId={userId} /> : null}
    </>
  );
}
