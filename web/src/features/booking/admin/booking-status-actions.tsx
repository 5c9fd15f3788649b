import { useRecordAction } from '#web/components/layout/detail-shell.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { type AdminBooking, type BookingStatus, formatBookingDate, nextStatuses } from '../admin-bookings.ts';
import { slotWithZone } from '../booking.ts';
import { useUpdateAdminBooking } from './api/update-admin-booking.ts';

type NextStatus = Exclude<BookingStatus, 'new'>;

const ACTIONS: Record<
  NextStatus,
  { button: string; title: string; done: string; destructive: boolean; tells: (b: AdminBooking) => string }
> = {
  confirmed: {
    button: 'Confirm booking',
    title: 'Confirm this booking?',
    done: 'Booking confirmed',
    destructive: false,
    tells: (b) =>
      `The session on ${formatBookingDate(b.bookingDate)} at ${slotWithZone(b.bookingTime)} is reserved for ${b.fullName}, who is told by email (${b.email})${b.userId ? ' and in their notifications' : ''}. Other requests for that slot can no longer be confirmed.`,
  },
  declined: {
    button: 'Decline booking',
    title: 'Decline this booking?',
    done: 'Booking declined',
    destructive: true,
    tells: (b) =>
      `${b.fullName} is told by email (${b.email})${b.userId ? ' and in their notifications' : ''} that the session cannot take place. This cannot be undone.`,
  },
  completed: {
    button: 'Mark completed',
    title: 'Mark this session as completed?',
    done: 'Booking marked completed',
    destructive: false,
    tells: (b) =>
      `Record that the session with ${b.fullName} took place.${b.userId ? ' They are thanked in their notifications.' : ''}`,
  },
};

/** The statuses the booking may move to next, each confirmed first; a refusal is said beside them. */
export function BookingStatusActions({ booking }: { booking: AdminBooking }) {
  const update = useUpdateAdminBooking();
  const action = useRecordAction();
  const next = nextStatuses(booking.status).filter((status): status is NextStatus => status !== 'new');
  return (
    <>
      <div>
        <h4 className="font-medium">Status</h4>
        {next.length > 0 ? (
          <div className="mt-3 flex flex-wrap gap-2">
            {next.map((status) => (
              <ConfirmButton
                key={status}
                variant={ACTIONS[status].destructive ? 'destructive' : 'default'}
                disabled={update.isPending}
                title={ACTIONS[status].title}
                description={ACTIONS[status].tells(booking)}
                confirmLabel={ACTIONS[status].button}
                destructive={ACTIONS[status].destructive}
                onConfirm={() =>
                  action.run(() => update.mutateAsync({ id: booking.id, status }), ACTIONS[status].done)
                }
              >
                {ACTIONS[status].button}
              </ConfirmButton>
            ))}
          </div>
        ) : (
          <p className="mt-2 text-muted-foreground text-sm">
            This booking is {booking.status}; its status does not change any more.
          </p>
        )}
      </div>
      {action.problem}
    </>
  );
}
