import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { openedFromRefusedLink } from '#web/lib/auth/session.ts';
import { useForm } from '#web/lib/use-form.ts';
import { hasSession, updatePassword } from '../api/update-password.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { formData, typedValues } from '../typed-values.ts';
import { PASSWORD_MIN_LENGTH, passwordUpdateProblems } from '../validation.ts';
import { PasswordField } from './form-fields.tsx';
import { ResetRequestForm } from './reset-request-form.tsx';
import type { AuthFormProps } from './sign-in-form.tsx';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

/** A used or expired reset link (issue 21 item 4): say so, and ask for a new link in place. */
function ExpiredResetLink() {
  return (
    <div className="grid gap-4">
      <div
        role="alert"
        className="flex gap-3 rounded-lg border border-amber-500/60 bg-amber-50 p-4 text-sm dark:bg-amber-950/30"
      >
        <TriangleAlert
          aria-hidden="true"
          className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300"
        />
        <div>
          <p className="font-medium">This password reset link has expired or was already used.</p>
          <p className="mt-1 text-muted-foreground">
            Each link works once and only for a limited time. Enter your email and we will send you a new one.
          </p>
        </div>
      </div>
      <ResetRequestForm />
    </div>
  );
}

/** Product §auth-screen, Reset-confirm: New Password, Confirm New Password and Update Password. */
export function ResetConfirmForm({ onSignedIn }: Pick<AuthFormProps, 'onSignedIn'>) {
  // The link's redirect says when it was refused (#error_code=otp_expired); a page without the link's
  // session (opened again after use, or directly) cannot set a password either.
  const [linkRefused] = useState(openedFromRefusedLink);
  const [sessionLost, setSessionLost] = useState(false);
  const { confirmed, user } = useAuth();
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  // The values are read from the inputs when the form is sent (typedValues: the page is prerendered).
  const form = useForm({ newPassword: '', confirmNewPassword: '' });

  const onSubmit = form.handleSubmit(async () => {
    const values = typedValues(formData(form.ref.current), ['newPassword', 'confirmNewPassword']);
    const problems = passwordUpdateProblems(values.newPassword, values.confirmNewPassword);
    if (form.showErrors({ newPassword: problems.password, confirmNewPassword: problems.confirmation }))
      return;
    if (!(await hasSession())) return setSessionLost(true);
    if (!(await action.run('auth_update_password', () => updatePassword(values.newPassword)))) {
      return submit.restore();
    }
    toast({ title: 'Success!', description: 'Your password has been updated successfully.' });
    onSignedIn();
  });

  if (linkRefused || sessionLost || (confirmed && !user)) return <ExpiredResetLink />;

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4">
      <PasswordField
        label="New Password"
        name="new_password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={form.errors.newPassword}
      />
      <PasswordField
        label="Confirm New Password"
        name="confirm_new_password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={form.errors.confirmNewPassword}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Updating Password...' : 'Update Password'}
      </Button>
    </form>
  );
}
