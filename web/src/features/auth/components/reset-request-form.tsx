import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { formData, typedValues } from '../typed-values.ts';
import { emailProblem } from '../validation.ts';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

/** Product §auth-screen, Reset: Email and a Send Reset Link button. */
export function ResetRequestForm() {
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  // The value is read from the input when the form is sent (typedValues: the page is prerendered).
  const form = useForm({ email: '' });

  const onSubmit = form.handleSubmit(async () => {
    const { email } = typedValues(formData(form.ref.current), ['email']);
    if (form.showErrors({ email: emailProblem(email) })) return;
    if (!(await action.run('auth_reset', () => requestPasswordReset(email)))) return submit.restore();
    toast({ title: 'Success!', description: 'Check your email for password reset instructions.' });
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4">
      <InputField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
