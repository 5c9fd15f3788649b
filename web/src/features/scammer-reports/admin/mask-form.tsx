import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { refusedField, useForm } from '#web/lib/use-form.ts';
import type { AdminReport } from './admin-report.ts';
import { useAddMask } from './api/add-mask.ts';
import { characterOffset, characters, MASKABLE_FIELDS, type MaskableField, readSpan } from './masks.ts';

/** The field's text as the reviewer reads it. */
export function fieldText(report: AdminReport, field: MaskableField): string {
  return report[field] ?? '';
}

/** Mask a span by hand: select it in the text, or give its first and last characters. */
export function MaskForm({ report }: { report: AdminReport }) {
  const add = useAddMask(report.id);
  const fields = MASKABLE_FIELDS.filter(([field]) => fieldText(report, field).length > 0);
  // The keys name the columns a refusal concerns (field, start_at, end_at; decision 180).
  const form = useForm<{ field: string; startAt: string; endAt: string }, 'form'>({
    field: fields[0]?.[0] ?? 'incident_details',
    startAt: '',
    endAt: '',
  });
  const field = form.values.field as MaskableField;
  const text = fieldText(report, field);
  /** Another field, or a new selection: the numbers follow and earlier problems go. */
  const choose = (values: typeof form.values) => {
    form.setValues(values);
    form.showErrors({});
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const span = readSpan(values.startAt, values.endAt);
    if ('problems' in span) {
      form.showErrors(span.problems);
      return;
    }
    form.showErrors({});
    try {
      await add.mutateAsync({ field, ...span });
      toast({ title: 'Masked: readers will not see it' });
      form.setValues({ field: values.field, startAt: '', endAt: '' });
    } catch (error) {
      const refused = refusedField(Object.keys(values), error);
      form.showErrors(
        refused?.key ? { [refused.key]: refused.message } : { form: refused?.message ?? errorText(error) },
      );
    }
  });

  if (fields.length === 0) return null;
  return (
    <form ref={form.ref} aria-label="Mask a span" className="grid gap-3 border-t pt-3" onSubmit={onSubmit}>
      <h5 className="font-medium text-sm">Mask a span</h5>
      <SelectField
        label="Field"
        {...form.field('field')}
        onChange={(event) => choose({ field: event.target.value, startAt: '', endAt: '' })}
      >
        {fields.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextareaField
        label="Select the characters to mask"
        readOnly
        rows={4}
        value={text}
        hint={`Select with the mouse, or with Shift and the arrow keys; the numbers below follow. The field has ${characters(text).length} characters.`}
        onSelect={(event) => {
          const target = event.currentTarget;
          if (target.selectionEnd > target.selectionStart) {
            choose({
              field: form.values.field,
              startAt: String(characterOffset(text, target.selectionStart) + 1),
              endAt: String(characterOffset(text, target.selectionEnd)),
            });
          }
        }}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField label="First character" inputMode="numeric" {...form.field('startAt')} />
        <InputField label="Last character" inputMode="numeric" {...form.field('endAt')} />
      </div>
      {form.errors.form ? (
        <p role="alert" className="text-destructive text-sm dark:text-red-400">
          {form.errors.form}
        </p>
      ) : null}
      <Button type="submit" variant="outline" className="justify-self-start" disabled={add.isPending}>
        Mask these characters
      </Button>
    </form>
  );
}
