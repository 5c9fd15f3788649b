import { useEffect, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useCreateBooking } from '../api/create-booking.ts';
import {
  BOOKING_MAX_LENGTH,
  type BookingValues,
  bookingProblems,
  EMPTY_BOOKING,
  PRODUCT_CATEGORIES,
  toBookingRow,
} from '../booking.ts';
import { useBookingDraft } from '../booking-draft.ts';
import { FormSection } from './form-section.tsx';
import { ScheduleFields } from './schedule-fields.tsx';

/** The schedule rules the server enforces (a taken slot, a same-day date) say what to do; else as usual. */
function bookingErrorText(error: unknown): string {
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : '';
  if (/already booked|at least one day ahead/.test(message)) return message;
  return errorText(error);
}

/**
 * Product §booking: Contact Information, Product Information, Schedule, and
 * Special Requests or Notes; visitors and members alike (§roles). A successful request clears the
 * date, the time and every field.
 */
export function BookingForm({ prefill }: { prefill?: Pick<BookingValues, 'fullName' | 'email'> }) {
  const auth = useAuth();
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
  const create = useCreateBooking();
  // The schedule is not text: it is kept beside the form's values.
  const [date, setDate] = useState<Date | undefined>();
  const [time, setTime] = useState<string | undefined>();

  const onSubmit = form.handleSubmit(async (values) => {
    if (form.showErrors(bookingProblems(values, date, time)) || !date || !time) return;
    try {
      await create.mutateAsync(toBookingRow(values, date, time, auth.user?.id ?? null));
      toast({
        title: 'Success!',
        description: "Your booking request has been submitted. We'll contact you soon!",
      });
      form.reset();
      // The member's name and email come back for their next request (product §booking).
      if (prefillName !== undefined && prefillEmail !== undefined)
        applyPrefill({ fullName: prefillName, email: prefillEmail });
      setDate(undefined);
      setTime(undefined);
    } catch (error) {
      // A rule of the database also shows under its field (decision 180); the toast says it as the spec asks.
      form.showRefusal(error);
      toast({ variant: 'destructive', title: 'Error', description: bookingErrorText(error) });
    }
  });

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
      <FormSection title="Contact Information">
        <InputField label="Full Name" required autoComplete="name" {...form.field('fullName')} />
        <InputField label="Email" required type="email" autoComplete="email" {...form.field('email')} />
        <InputField label="Phone" type="tel" autoComplete="tel" {...form.field('phone')} />
        <InputField label="Company Name" autoComplete="organization" {...form.field('companyName')} />
      </FormSection>

      <FormSection title="Product Information">
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
      </FormSection>

      <FormSection title="Schedule">
        <ScheduleFields
          date={date}
          time={time}
          onDateChange={(day) => {
            setDate(day);
            form.clearError('schedule');
          }}
          onTimeChange={(slot) => {
            setTime(slot);
            form.clearError('schedule');
          }}
          error={form.errors.schedule}
        />
      </FormSection>

      <FormSection title="Special Requests or Notes">
        <TextareaField
          label="Special Requests"
          className="sm:col-span-2"
          {...form.field('specialRequests')}
        />
      </FormSection>

      <Button type="submit" size="lg" className="w-full" disabled={form.busy}>
        {form.busy ? 'Submitting...' : 'Submit Booking Request'}
      </Button>
    </form>
  );
}
