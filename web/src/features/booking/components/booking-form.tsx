import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Calendar } from '#web/components/ui/calendar.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FieldError, InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { cn } from '#web/lib/utils.ts';
import { createBooking } from '../api/create-booking.ts';
import { takenSlotsQueryOptions } from '../api/get-taken-slots.ts';
import {
  BOOKING_HORIZON_DAYS,
  BOOKING_MAX_LENGTH,
  BOOKING_TIME_ZONE_LABEL,
  BOOKING_TIME_ZONE_SHORT,
  type BookingValues,
  bookingProblems,
  EMPTY_BOOKING,
  formatBookingDate,
  PRODUCT_CATEGORIES,
  slotInZone,
  slotWithZone,
  startOfToday,
  TIME_SLOTS,
  toBookingRow,
} from '../booking.ts';
import { useBookingDraft } from '../booking-draft.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card role="group" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id} level={2} className="text-xl">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">{children}</CardContent>
    </Card>
  );
}

/** The schedule rules the server enforces (a taken slot, a same-day date) say what to do; else as usual. */
function bookingErrorText(error: unknown): string {
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : '';
  if (/already booked|at least one day ahead/.test(message)) return message;
  return errorText(error);
}

const longDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });

/** The reader's own time zone (IANA name), to show a chosen slot on their clock too. */
function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * Product §booking: Contact Information, Product Information, Schedule, and
 * Special Requests or Notes; visitors and members alike (§roles). A successful request clears the
 * date, the time and every field.
 */
export function BookingForm({ prefill }: { prefill?: Pick<BookingValues, 'fullName' | 'email'> }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const form = useForm<BookingValues, 'schedule'>(EMPTY_BOOKING, { maxLength: BOOKING_MAX_LENGTH });
  // Before the prefill below: a restored draft first, then the member's name and email where it has none.
  const restoredDraft = useBookingDraft(form.values, form.setValues, Boolean(auth.user));
  const { prefill: applyPrefill } = form;
  const prefillName = prefill?.fullName;
  const prefillEmail = prefill?.email;
  useEffect(() => {
    if (prefillName !== undefined && prefillEmail !== undefined)
      applyPrefill({ fullName: prefillName, email: prefillEmail });
  }, [applyPrefill, prefillName, prefillEmail]);
  const [date, setDate] = useState<Date | undefined>();
  const [time, setTime] = useState<string | undefined>();
  const timeLegend = useId();
  const scheduleError = useId();
  // "Earlier than now" is judged when the page opens; a tab left open past midnight still gets the
  // server's check.
  const [today] = useState(() => startOfToday());
  const lastDay = new Date(today.getFullYear(), today.getMonth(), today.getDate() + BOOKING_HORIZON_DAYS);
  // No same-day sessions (issue 21 item 10): tomorrow is the first day offered; the server agrees.
  const firstDay = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const taken = useQuery(takenSlotsQueryOptions(firstDay, lastDay));
  const isTaken = (day: Date | undefined, slot: string) =>
    day !== undefined && (taken.data?.has(`${formatBookingDate(day)} ${slot}`) ?? false);

  const onSubmit = form.handleSubmit(async (values) => {
    if (form.showErrors(bookingProblems(values, date, time)) || !date || !time) return;
    try {
      await createBooking(toBookingRow(values, date, time, auth.user?.id ?? null));
      toast({
        title: 'Success!',
        description: "Your booking request has been submitted. We'll contact you soon!",
      });
      form.reset();
      // The member's name and email come back for their next request (product §booking).
      if (prefillName !== undefined && prefillEmail !== undefined)
        applyPrefill({ fullName: prefillName, email: prefillEmail });
      void queryClient.invalidateQueries({ queryKey: ['booking', 'mine'] });
      setDate(undefined);
      setTime(undefined);
    } catch (error) {
      // A rule of the database also shows under its field (decision 180); the toast says it as the spec asks.
      form.showRefusal(error);
      toast({ variant: 'destructive', title: 'Error', description: bookingErrorText(error) });
      void queryClient.invalidateQueries({ queryKey: ['booking', 'taken'] });
    }
  });

  const scheduleInvalid = Boolean(form.errors.schedule);
  const localTime = date && time ? slotInZone(formatBookingDate(date), time, readerTimeZone()) : null;

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="mt-10 grid gap-6" aria-busy={form.busy}>
      {restoredDraft ? (
        <p
          role="status"
          className="rounded-lg border bg-muted/50 p-3 text-sm"
          data-testid="booking-draft-restored"
        >
          What you typed earlier in this tab is back in the form.
        </p>
      ) : null}
      <Section title="Contact Information">
        <InputField label="Full Name" required autoComplete="name" {...form.field('fullName')} />
        <InputField label="Email" required type="email" autoComplete="email" {...form.field('email')} />
        <InputField label="Phone" type="tel" autoComplete="tel" {...form.field('phone')} />
        <InputField label="Company Name" autoComplete="organization" {...form.field('companyName')} />
      </Section>

      <Section title="Product Information">
        <InputField label="Product Name" required {...form.field('productName')} />
        <SelectField label="Product Category" required {...form.field('productCategory')}>
          <option value="">Select a category</option>
          {PRODUCT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label="Product Description"
          className="sm:col-span-2"
          {...form.field('productDescription')}
        />
      </Section>

      <Section title="Schedule">
        <div className="grid gap-2">
          <p className="font-medium text-sm">
            Date
            <span aria-hidden="true" className="text-destructive dark:text-red-400">
              *
            </span>
          </p>
          <Calendar
            mode="single"
            selected={date}
            onSelect={(day) => {
              setDate(day);
              if (time && isTaken(day, time)) setTime(undefined);
              form.clearError('schedule');
            }}
            disabled={[{ before: firstDay }, { after: lastDay }]}
            startMonth={today}
            endMonth={lastDay}
            defaultMonth={date ?? today}
            className={cn('rounded-md border p-3', scheduleInvalid && !date && 'border-destructive')}
          />
          <p className="text-muted-foreground text-sm" aria-live="polite">
            {date ? `Selected: ${longDate.format(date)}` : 'No date selected'}
          </p>
        </div>
        <fieldset
          className="grid content-start gap-2"
          aria-describedby={scheduleError}
          aria-invalid={scheduleInvalid && !time ? true : undefined}
        >
          <legend id={timeLegend} className="mb-2 font-medium text-sm">
            Time ({BOOKING_TIME_ZONE_LABEL}, {BOOKING_TIME_ZONE_SHORT})
            <span aria-hidden="true" className="text-destructive dark:text-red-400">
              *
            </span>
          </legend>
          <p className="text-muted-foreground text-sm" data-testid="slot-time-zone">
            Every time is {BOOKING_TIME_ZONE_LABEL}, the HighGrade team's time zone.
          </p>
          <div className="grid grid-cols-3 gap-2">
            {TIME_SLOTS.map((slot) => {
              const slotTaken = isTaken(date, slot);
              return (
                <label
                  key={slot}
                  className="relative flex h-10 cursor-pointer items-center justify-center gap-1 rounded-md border border-input text-sm transition-colors hover:bg-accent has-checked:border-primary has-checked:bg-primary has-checked:text-primary-foreground has-disabled:cursor-not-allowed has-disabled:bg-muted has-disabled:text-muted-foreground has-disabled:line-through has-focus-visible:ring-2 has-focus-visible:ring-ring has-focus-visible:ring-offset-2"
                >
                  <input
                    type="radio"
                    value={slot}
                    disabled={slotTaken}
                    aria-label={slotTaken ? `${slot}, taken` : undefined}
                    // Invisible but covering its label: clicks, taps and arrow keys reach the real radio.
                    className="absolute inset-0 cursor-pointer appearance-none rounded-md opacity-0"
                    checked={time === slot}
                    onChange={() => {
                      setTime(slot);
                      form.clearError('schedule');
                    }}
                  />
                  {slot}
                  {slotTaken ? <span className="text-xs no-underline">taken</span> : null}
                </label>
              );
            })}
          </div>
          <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="slot-local-time">
            {localTime
              ? `${slotWithZone(time as string)} is ${localTime} where you are.`
              : date && time
                ? `${slotWithZone(time)} is your local time too.`
                : ''}
          </p>
        </fieldset>
        <div className="sm:col-span-2">
          <FieldError id={scheduleError} error={form.errors.schedule} />
        </div>
      </Section>

      <Section title="Special Requests or Notes">
        <TextareaField
          label="Special Requests"
          className="sm:col-span-2"
          {...form.field('specialRequests')}
        />
      </Section>

      <Button type="submit" size="lg" className="w-full" disabled={form.busy}>
        {form.busy ? 'Submitting...' : 'Submit Booking Request'}
      </Button>
    </form>
  );
}
