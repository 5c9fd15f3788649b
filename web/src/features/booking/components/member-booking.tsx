import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { bookingContactQueryOptions } from '../api/get-booking-contact.ts';
import { BookingForm } from './booking-form.tsx';
import { MyBookings } from './my-bookings.tsx';

/**
 * The booking page's body: the form — prefilled with a signed-in member's name and email (issue 15),
 * which a successful request brings back — and, for members, "My bookings". The name arrives after
 * the form is on screen; it fills only fields the member has not typed in yet.
 *
 * When the member's session ends while the page stays open (signed out in another tab, a refresh that
 * failed for good), the form starts again empty: their name, email and whatever they typed must not wait
 * there for the next person at a shared computer, nor come back as what "reset" restores.
 */
export function BookingPageBody() {
  const { user } = useAuth();
  const userId = useConfirmedUserId();
  const contact = useQuery(bookingContactQueryOptions(userId));
  const prefill =
    userId && user && contact.isSuccess ? { fullName: contact.data, email: user.email ?? '' } : undefined;
  const [formGeneration, setFormGeneration] = useState(0);
  const member = useRef(userId);
  useEffect(() => {
    if (member.current && member.current !== userId) setFormGeneration((count) => count + 1);
    member.current = userId;
  }, [userId]);
  return (
    <>
      <BookingForm key={formGeneration} prefill={prefill} />
      {userId ? <MyBookings userId={userId} /> : null}
    </>
  );
}
