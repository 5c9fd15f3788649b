import { type FormEvent, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { emailProblem } from '../validation.ts';
import { TextField } from './form-fields.tsx';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

/** Product §auth-screen, Reset: Email and a Send Reset Link button. */
export function ResetRequestForm() {
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  const email = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.current?.value ?? '';
    const problem = emailProblem(value);
    setError(problem);
    if (problem) return email.current?.focus();
    if (!(await action.run('auth_reset', () => requestPasswordReset(value)))) return submit.restore();
    toast({ title: 'Success!', description: 'Check your email for password reset instructions.' });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextField ref={email} label="Email" name="email" type="email" autoComplete="email" error={error} />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
