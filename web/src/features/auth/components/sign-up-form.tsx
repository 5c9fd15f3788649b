import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { signUp } from '../api/sign-up.ts';
import { validateName } from '../api/validate-name.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { formData, typedValues } from '../typed-values.ts';
import { emailProblem, newPasswordProblem, PASSWORD_MIN_LENGTH } from '../validation.ts';
import { CheckEmail } from './check-email.tsx';
import { PasswordField } from './form-fields.tsx';
import type { AuthFormProps } from './sign-in-form.tsx';
import { SocialSignIn } from './social-sign-in.tsx';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

/**
 * Product §auth-screen, Sign Up: the social button, Full Name, Email, Password (at least 6). No redirect on
 * success: the form gives way to what to do next (check the email, or enter its code here).
 */
export function SignUpForm({ onSignedIn, onSocialStarted }: AuthFormProps) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    return <CheckEmail email={sentTo} onConfirmed={onSignedIn} onStartOver={() => setSentTo(null)} />;
  }
  return <SignUpFields onSocialStarted={onSocialStarted} onSent={setSentTo} />;
}

function SignUpFields({
  onSocialStarted,
  onSent,
}: Pick<AuthFormProps, 'onSocialStarted'> & { onSent: (email: string) => void }) {
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  // The values are read from the inputs when the form is sent (typedValues: the page is prerendered).
  const form = useForm({ fullName: '', email: '', password: '' });

  const onSubmit = form.handleSubmit(async () => {
    const values = typedValues(formData(form.ref.current), ['fullName', 'email', 'password']);
    const problems = { email: emailProblem(values.email), password: newPasswordProblem(values.password) };
    if (form.showErrors(problems)) return;
    const ok = await action.run('auth_signup', async () => {
      await validateName(values.fullName);
      await signUp(values);
    });
    if (!ok) return submit.restore();
    toast({ title: 'Success!', description: 'Check your email to confirm your account.' });
    form.ref.current?.reset();
    onSent(values.email.trim());
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4">
      <SocialSignIn action={action} onStarted={onSocialStarted} />
      <InputField label="Full Name" name="full_name" autoComplete="name" />
      <InputField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={form.errors.password}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Creating Account...' : 'Sign Up'}
      </Button>
    </form>
  );
}
