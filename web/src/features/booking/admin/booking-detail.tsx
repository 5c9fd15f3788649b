import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import { type AdminBooking, type BookingStatus, formatBookingDate, nextStatuses } from '../admin-bookings.ts';
import { adminBookingQueryOptions } from '../api/get-admin-booking.ts';
import { useUpdateAdminBooking } from '../api/update-admin-booking.ts';
import { slotWithZone } from '../booking.ts';
import { BookingStatusBadge } from './booking-status-badge.tsx';

const ACTIONS: Record<
  Exclude<BookingStatus, 'new'>,
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

const MAX_NOTE = 2000;

function Field({ label, value }: { label: string; value: string | null }) {
  return (
    <div>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-wrap">{value || '—'}</dd>
    </div>
  );
}

function NoteEditor({ booking }: { booking: AdminBooking }) {
  const [note, setNote] = useState(booking.adminNote ?? '');
  const update = useUpdateAdminBooking();
  const id = useId();
  const changed = note !== (booking.adminNote ?? '');
  // The database's refusal at the note (decision 180), the toast saying that saving again cannot help.
  const refusal = useFieldRefusal({ note: id });
  const save = () => {
    refusal.clear();
    return update.mutateAsync({ id: booking.id, note }).then(
      () => toast({ title: 'Note saved' }),
      (error: unknown) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusal.show(error) ?? errorText(error),
        }),
    );
  };
  return (
    <form
      className="grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id} className="font-medium text-sm">
        Internal note
      </label>
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        Only admins see this note. {note.length.toLocaleString('en-US')} / {MAX_NOTE.toLocaleString('en-US')}{' '}
        characters.
      </p>
      <Textarea
        id={id}
        aria-describedby={`${id}-hint`}
        value={note}
        maxLength={MAX_NOTE}
        rows={4}
        {...(refusal.errorFor('note')
          ? { 'aria-invalid': true, 'aria-describedby': `${id}-hint ${refusal.errorId('note')}` }
          : {})}
        onChange={(event) => {
          setNote(event.target.value);
          refusal.clear();
        }}
      />
      {refusal.errorFor('note') ? (
        <FieldError id={refusal.errorId('note')} error={refusal.errorFor('note')} />
      ) : null}
      <div>
        <Button type="submit" variant="outline" disabled={!changed || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save note'}
        </Button>
      </div>
    </form>
  );
}

function BookingView({ booking }: { booking: AdminBooking }) {
  const update = useUpdateAdminBooking();
  const [problem, setProblem] = useState<string | null>(null);
  const move = (status: Exclude<BookingStatus, 'new'>) => {
    setProblem(null);
    return update.mutateAsync({ id: booking.id, status }).then(
      () => toast({ title: ACTIONS[status].done }),
      (error: unknown) => {
        // Said twice: as a toast, and beside the buttons until the next attempt.
        setProblem(errorText(error));
        toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
      },
    );
  };
  const next = nextStatuses(booking.status).filter(
    (status): status is Exclude<BookingStatus, 'new'> => status !== 'new',
  );
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
            <Field
              label="Session"
              value={`${formatBookingDate(booking.bookingDate)} at ${slotWithZone(booking.bookingTime)}`}
            />
            <Field label="Category" value={booking.productCategory} />
            <Field label="Full name" value={booking.fullName} />
            <Field label="Email" value={booking.email} />
            <Field label="Phone" value={booking.phone} />
            <Field label="Company" value={booking.companyName} />
            <Field label="Account" value={booking.userId ? 'Member' : 'Visitor (no account)'} />
            <Field label="Requested" value={new Date(booking.createdAt).toLocaleString('en-US')} />
          </dl>
          <dl className="mt-4 grid gap-4">
            <Field label="Product description" value={booking.productDescription} />
            <Field label="Special requests" value={booking.specialRequests} />
          </dl>
        </section>
        <section aria-label="Handling" className="grid content-start gap-5 rounded-xl border p-5">
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
                    onConfirm={() => move(status)}
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
          {problem ? (
            <p role="alert" className="rounded-md border border-destructive/40 p-3 text-destructive text-sm">
              {problem}
            </p>
          ) : null}
          <NoteEditor key={booking.adminNote ?? ''} booking={booking} />
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
    <div className="grid gap-5">
      <div>
        <Button asChild variant="ghost" className="-ml-3">
          <Link to={`..${search}`} relative="path">
            <ArrowLeft aria-hidden="true" />
            All bookings
          </Link>
        </Button>
      </div>
      {booking.isPending || booking.isError ? (
        <QueryState
          what="booking"
          query={booking}
          loading={
            <>
              <Skeleton className="h-8 w-72" />
              <Skeleton className="h-64 w-full" />
            </>
          }
        />
      ) : booking.data === null ? (
        <EmptyState icon={SearchX} title="Booking not found">
          There is no booking with this address. It may have been deleted with its member's account.
        </EmptyState>
      ) : (
        <BookingView booking={booking.data} />
      )}
    </div>
  );
}
