import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useForm } from '#web/lib/use-form.ts';
import { confirmSignUpCode, resendSignUpMail } from '../api/confirm-sign-up.ts';
import { useAuthAction } from '../hooks/use-auth-action.ts';

/** The confirmation code as the mail writes it: six digits (spaces and dashes typed along are ignored). */
export function signUpCodeProblem(code: string): string | null {
  return /^\d{6}$/.test(code.replace(/[\s-]/g, '')) ? null : 'Enter the 6-digit code from the email.';
}

/**
 * After a sign-up (issue 21, items 1 and 2): what to do next, in place of the form — open the link in
 * the mail, or enter its code here; send the mail again; or start over with another address.
 */
export function CheckEmail({
  email,
  onConfirmed,
  onStartOver,
}: {
  email: string;
  onConfirmed: () => void;
  onStartOver: () => void;
}) {
  const action = useAuthAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useForm({ code: '' }, { maxLength: { code: 9 } });
  const [resent, setResent] = useState(false);

  useEffect(() => heading.current?.focus(), []);

  const confirm = form.handleSubmit(async ({ code }) => {
    if (form.showErrors({ code: signUpCodeProblem(code) })) return;
    if (await action.run('auth_confirm_code', () => confirmSignUpCode(email, code.replace(/[\s-]/g, '')))) {
      toast({ title: 'Success!', description: 'Your email is confirmed. Welcome to HighGrade!' });
      onConfirmed();
    }
  });

  const resend = async () => {
    if (await action.run('auth_resend', () => resendSignUpMail(email))) {
      setResent(true);
      toast({ title: 'Email sent', description: `We sent a new confirmation email to ${email}.` });
    }
  };

  return (
    <section aria-labelledby="check-email-heading" className="grid gap-4">
      <div className="flex items-start gap-3">
        <MailCheck aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
        <div>
          <h2
            id="check-email-heading"
            ref={heading}
            tabIndex={-1}
            className="font-semibold text-lg outline-none"
          >
            Check your email
          </h2>
          <p className="mt-1 text-muted-foreground text-sm">
            We sent a confirmation link to <strong className="text-foreground">{email}</strong>. Open it to
            finish creating your account, or enter the 6-digit code from the email here.
          </p>
        </div>
      </div>
      <form ref={form.ref} noValidate onSubmit={confirm} className="grid gap-3">
        <InputField
          label="Confirmation code"
          inputMode="numeric"
          autoComplete="one-time-code"
          {...form.field('code')}
        />
        <Button type="submit" className="w-full" disabled={action.busy}>
          {action.busy ? 'Confirming...' : 'Confirm Email'}
        </Button>
      </form>
      <div className="grid gap-1 text-muted-foreground text-sm">
        <p>
          No email? Check your spam folder, or{' '}
          <Button variant="link" className="h-auto p-0" disabled={action.busy} onClick={() => void resend()}>
            {resent ? 'send it again' : 'send a new one'}
          </Button>
          .
        </p>
        <p>
          Wrong address?{' '}
          <Button variant="link" className="h-auto p-0" onClick={onStartOver}>
            Sign up with another email
          </Button>
        </p>
      </div>
    </section>
  );
}
