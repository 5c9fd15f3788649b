import { type ComponentProps, type ReactElement, type Ref, useId } from 'react';
import { cn } from '#web/lib/utils.ts';
import { Input } from './input.tsx';
import { Label } from './label.tsx';
import { NativeSelect } from './native-select.tsx';
import { Textarea } from './textarea.tsx';

/** A field's problem under it; always in the page so screen readers announce the text when it appears. */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  return (
    <p id={id} role="alert" className={cn('text-destructive text-sm dark:text-red-400', !error && 'sr-only')}>
      {error ?? ''}
    </p>
  );
}

interface Labelled {
  label: string;
  /** Marks the label with * and sets aria-required. */
  required?: boolean;
  error?: string | null;
  hint?: string;
  className?: string;
  /** The control's id, when the form must find it (a refusal moves the keyboard there); generated otherwise. */
  id?: string;
}

function Field({
  id: givenId,
  label,
  required,
  error,
  hint,
  className,
  control,
}: Labelled & { control: (ids: { id: string; describedBy: string }) => ReactElement }) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive dark:text-red-400">
            *
          </span>
        ) : null}
      </Label>
      {control({ id, describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

type InputFieldProps = Labelled &
  Omit<ComponentProps<'input'>, 'id' | 'className'> & { ref?: Ref<HTMLInputElement> };

/** A labelled input with its error message (aria-invalid, aria-describedby). */
export function InputField({ id, label, required, error, hint, className, ...props }: InputFieldProps) {
  return (
    <Field
      {...{ id, label, required, error, hint, className }}
      control={({ id: controlId, describedBy }) => (
        <Input
          id={controlId}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...props}
        />
      )}
    />
  );
}

type TextareaFieldProps = Labelled &
  Omit<ComponentProps<'textarea'>, 'id' | 'className'> & { ref?: Ref<HTMLTextAreaElement> };

export function TextareaField({ id, label, required, error, hint, className, ...props }: TextareaFieldProps) {
  return (
    <Field
      {...{ id, label, required, error, hint, className }}
      control={({ id: controlId, describedBy }) => (
        <Textarea
          id={controlId}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...props}
        />
      )}
    />
  );
}

type SelectFieldProps = Labelled &
  Omit<ComponentProps<'select'>, 'id' | 'className'> & { ref?: Ref<HTMLSelectElement> };

export function SelectField({
  id,
  label,
  required,
  error,
  hint,
  className,
  children,
  ...props
}: SelectFieldProps) {
  return (
    <Field
      {...{ id, label, required, error, hint, className }}
      control={({ id: controlId, describedBy }) => (
        <NativeSelect
          id={controlId}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...props}
        >
          {children}
        </NativeSelect>
      )}
    />
  );
}
