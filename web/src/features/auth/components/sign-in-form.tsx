import { type FormEvent, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { signInWithPassword } from '../api/sign-in-with-password.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { emailProblem, passwordPresentProblem } from '../validation.ts';
import { PasswordField, TextField } from './form-fields.tsx';
import { SocialSignIn } from './social-sign-in.tsx';
import { useFocusAfterFailure } from './use-focus-after-failure.ts';

export interface AuthFormProps {
  /** Signed in (or password updated): product §auth-screen closes any dialog and goes to /. */
  onSignedIn: () => void;
  onSocialStarted: () => void;
}

export function SignInForm({ onSignedIn, onSocialStarted }: AuthFormProps) {
  const action = useAuthAction();
  const submit = useFocusAfterFailure();
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  // In the prerendered /auth page the button stays disabled until the app runs: a form submitted by the
  // browser itself would put the email and password in the address (decision 157).
  const hydrated = useHydrated();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = { email: email.current?.value ?? '', password: password.current?.value ?? '' };
    const problems = { email: emailProblem(values.email), password: passwordPresentProblem(values.password) };
    setErrors(problems);
    if (problems.email) return email.current?.focus();
    if (problems.password) return password.current?.focus();
    if (await action.run('auth_signin', () => signInWithPassword(values))) onSignedIn();
    else submit.restore();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <SocialSignIn action={action} onStarted={onSocialStarted} />
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
        autoComplete="current-password"
        error={errors.password}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy || !hydrated}>
        {action.busy ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
