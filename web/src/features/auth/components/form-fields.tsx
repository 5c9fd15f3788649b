import { Eye, EyeOff } from 'lucide-react';
import { type ComponentProps, type Ref, useId, useState } from 'react';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { cn } from '#web/lib/utils.ts';

interface FieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  /** The field's problem, shown under it and announced. */
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
}

/** A password input with a show/hide toggle (product §auth-screen). */
export function PasswordField({ label, error, className, ...props }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          id={id}
          type={visible ? 'text' : 'password'}
          className="pr-11"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-error`}
          {...props}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground"
          // One name, its state in aria-pressed: "Show password, toggle button, pressed".
          aria-label={`Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? (
            <EyeOff aria-hidden="true" className="size-4" />
          ) : (
            <Eye aria-hidden="true" className="size-4" />
          )}
        </button>
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
