import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { signInWithPassword } from '../api/sign-in-with-password.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';
import { formData, typedValues } from '../typed-values.ts';
import { emailProblem, passwordPresentProblem } from '../validation.ts';
import { PasswordField } from './form-fields.tsx';
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
  // The values are read from the inputs when the form is sent (typedValues: the page is prerendered).
  const form = useForm({ email: '', password: '' });
  // In the prerendered /auth page the button stays disabled until the app runs: a form submitted by the
  // browser itself would put the email and password in the address (decision 157).
  const hydrated = useHydrated();

  const onSubmit = form.handleSubmit(async () => {
    const values = typedValues(formData(form.ref.current), ['email', 'password']);
    const problems = { email: emailProblem(values.email), password: passwordPresentProblem(values.password) };
    if (form.showErrors(problems)) return;
    if (await action.run('auth_signin', () => signInWithPassword(values))) onSignedIn();
    else submit.restore();
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-4">
      <SocialSignIn action={action} onStarted={onSocialStarted} />
      <InputField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        error={form.errors.password}
      />
      <Button ref={submit.ref} type="submit" className="w-full" disabled={action.busy || !hydrated}>
        {action.busy ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
