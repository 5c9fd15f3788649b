import { useQuery } from '@tanstack/react-query';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { type BookingStatus, formatBookingDate, STATUS_LABELS } from '../admin-bookings.ts';
import { myBookingsQueryOptions } from '../api/get-my-bookings.ts';

const EXPLAINED: Record<BookingStatus, string> = {
  new: 'Waiting for our answer',
  confirmed: 'See you then!',
  declined: 'We could not host this one',
  completed: 'Thank you for presenting',
};

const VARIANT: Record<BookingStatus, 'default' | 'secondary' | 'destructive' | 'outline'> = {
  new: 'outline',
  confirmed: 'default',
  declined: 'destructive',
  completed: 'secondary',
};

/** "My bookings" on /booking (issue 15): a signed-in member's requests and where each stands. */
export function MyBookings({ userId }: { userId: string }) {
  const bookings = useQuery(myBookingsQueryOptions(userId));
  return (
    <section id="my-bookings" aria-labelledby="my-bookings-heading" className="mt-12 scroll-mt-24">
      <h2 id="my-bookings-heading" className="font-semibold text-2xl tracking-tight">
        My bookings
      </h2>
      {bookings.isPending ? (
        <div role="status" className="mt-4 grid gap-2">
          <span className="sr-only">Loading your bookings…</span>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : bookings.isError ? (
        <div role="alert" className="mt-4 rounded-xl border border-destructive/40 p-5">
          <p>{errorText(bookings.error)}</p>
          <Button className="mt-3" variant="outline" onClick={() => void bookings.refetch()}>
            Try Again
          </Button>
        </div>
      ) : bookings.data.length === 0 ? (
        <p className="mt-3 text-muted-foreground">
          You have no bookings yet. Requests you make while signed in appear here with their status.
        </p>
      ) : (
        <ul className="mt-4 grid gap-3">
          {bookings.data.map((booking) => (
            <li
              key={booking.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4"
            >
              <div>
                <p className="font-medium">{booking.productName}</p>
                <p className="text-muted-foreground text-sm">
                  {formatBookingDate(booking.bookingDate)} at {booking.bookingTime} ·{' '}
                  {booking.productCategory}
                </p>
              </div>
              <div className="text-right">
                <Badge variant={VARIANT[booking.status]}>{STATUS_LABELS[booking.status]}</Badge>
                <p className="mt-1 text-muted-foreground text-xs">{EXPLAINED[booking.status]}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
