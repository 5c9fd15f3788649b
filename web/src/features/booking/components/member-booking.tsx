import { useQuery } from '@tanstack/react-query';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { bookingContactQueryOptions } from '../api/get-booking-contact.ts';
import { BookingForm } from './booking-form.tsx';
import { MyBookings } from './my-bookings.tsx';

/**
 * The booking page's body: the form — prefilled with a signed-in member's name and email (issue 15),
 * which a successful request brings back — and, for members, "My bookings". The name arrives after
 * the form is on screen; it fills only fields the member has not typed in yet.
 */
export function BookingPageBody() {
  const { user } = useAuth();
  const userId = useConfirmedUserId();
  const contact = useQuery(bookingContactQueryOptions(userId));
  const prefill =
    userId && user && contact.isSuccess ? { fullName: contact.data, email: user.email ?? '' } : undefined;
  return (
    <>
      <BookingForm prefill={prefill} />
      {userId ? <MyBookings userId={userId} /> : null}
    </>
  );
}
