import { Button } from '#web/components/ui/button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import type { AdminBooking } from '../admin-bookings.ts';
import { useUpdateAdminBooking } from './api/update-admin-booking.ts';

const MAX_NOTE = 2000;

/** The booking's internal note, for admins only; the database's refusal is shown at the note (decision 180). */
export function BookingNote({ booking }: { booking: AdminBooking }) {
  const update = useUpdateAdminBooking();
  const saved = booking.adminNote ?? '';
  const form = useForm({ note: saved }, { maxLength: { note: MAX_NOTE } });
  const { note } = form.values;
  return (
    <form
      ref={form.ref}
      className="grid gap-2"
      onSubmit={form.handleSubmit(async (values) => {
        form.clearError('note');
        try {
          await update.mutateAsync({ id: booking.id, note: values.note });
          toast({ title: 'Note saved' });
        } catch (error) {
          // The toast says that saving again cannot help when the database names its rule.
          toast({
            variant: 'destructive',
            title: 'Error',
            description: form.showRefusal(error) ?? errorText(error),
          });
        }
      })}
    >
      <TextareaField
        label="Internal note"
        rows={4}
        hint={`Only admins see this note. ${note.length.toLocaleString('en-US')} / ${MAX_NOTE.toLocaleString('en-US')} characters.`}
        {...form.field('note')}
      />
      <div>
        <Button type="submit" variant="outline" disabled={note === saved || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save note'}
        </Button>
      </div>
    </form>
  );
}
