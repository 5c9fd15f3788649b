import type { ReactElement } from 'react';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import type { FieldProps } from '#web/lib/use-form.ts';
import { cn } from '#web/lib/utils.ts';

/** What a control takes from its field: useForm's name, value, change handler and limit, and its marks. */
export type ControlProps = Omit<FieldProps, 'error'> & {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
};

/**
 * A labelled control of the brand forms, its problem (a refusal at its column, decision 180) under it
 * only while there is one: the form's own note is then its one alert. `announce` makes the problem an
 * alert too (the licence, claim and edit forms always did; the brand form did not).
 */
export function ProblemField({
  id,
  label,
  field,
  announce = false,
  className,
  children,
}: {
  id: string;
  label: string;
  field: FieldProps;
  announce?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactElement;
}) {
  const { error, ...control } = field;
  const errorId = `${id}-error`;
  const marks = error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, ...control, ...marks })}
      {!error ? null : announce ? (
        <FieldError id={errorId} error={error} />
      ) : (
        <p id={errorId} className="text-destructive text-sm dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
