import { type FormEvent, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { updatePassword } from '../api/update-password.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { PASSWORD_MIN_LENGTH, passwordUpdateProblems } from '../validation.ts';
import { PasswordField } from './form-fields.tsx';
import type { AuthFormProps } from './sign-in-form.tsx';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

/** Product §auth-screen, Reset-confirm: New Password, Confirm New Password and Update Password. */
export function ResetConfirmForm({ onSignedIn }: Pick<AuthFormProps, 'onSignedIn'>) {
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  const password = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = password.current?.value ?? '';
    const problems = passwordUpdateProblems(value, confirmation.current?.value ?? '');
    setErrors(problems);
    if (problems.confirmation) return confirmation.current?.focus();
    if (problems.password) return password.current?.focus();
    if (!(await action.run('auth_update_password', () => updatePassword(value)))) return submit.restore();
    toast({ title: 'Success!', description: 'Your password has been updated successfully.' });
    onSignedIn();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <PasswordField
        ref={password}
        label="New Password"
        name="new_password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={errors.password}
      />
      <PasswordField
        ref={confirmation}
        label="Confirm New Password"
        name="confirm_new_password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={errors.confirmation}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Updating Password...' : 'Update Password'}
      </Button>
    </form>
  );
}
