import { type FormEvent, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { signUp } from '../api/sign-up.ts';
import { validateName } from '../api/validate-name.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { emailProblem, newPasswordProblem, PASSWORD_MIN_LENGTH } from '../validation.ts';
import { CheckEmail } from './check-email.tsx';
import { PasswordField, TextField } from './form-fields.tsx';
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
  const form = useRef<HTMLFormElement>(null);
  const fullName = useRef<HTMLInputElement>(null);
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = {
      fullName: fullName.current?.value ?? '',
      email: email.current?.value ?? '',
      password: password.current?.value ?? '',
    };
    const problems = { email: emailProblem(values.email), password: newPasswordProblem(values.password) };
    setErrors(problems);
    if (problems.email) return email.current?.focus();
    if (problems.password) return password.current?.focus();
    const ok = await action.run('auth_signup', async () => {
      await validateName(values.fullName);
      await signUp(values);
    });
    if (!ok) return submit.restore();
    toast({ title: 'Success!', description: 'Check your email to confirm your account.' });
    form.current?.reset();
    onSent(values.email.trim());
  };

  return (
    <form ref={form} noValidate onSubmit={onSubmit} className="grid gap-4">
      <SocialSignIn action={action} onStarted={onSocialStarted} />
      <TextField ref={fullName} label="Full Name" name="full_name" autoComplete="name" />
      <TextField
        ref={email}
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        error={errors.email}
      />
      <PasswordField
        ref={password}
        label="Password"
        name="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={errors.password}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Creating Account...' : 'Sign Up'}
      </Button>
    </form>
  );
}
