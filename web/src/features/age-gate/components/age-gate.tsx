import { ShieldCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { getConfig } from '#web/lib/config.ts';
import { rememberAgeVerified } from '../age-verification.ts';

/** Where a visitor who is under age is sent when they choose to leave. */
const LEAVE_URL = 'https://www.google.com/';

/**
 * The 21+ confirmation. A modal alert dialog: focus stays inside, the rest of the page is hidden
 * from assistive technology, and neither Escape nor a click outside dismisses it — only an answer.
 */
export default function AgeGate({ onConfirmed }: { onConfirmed: () => void }) {
  const [underAge, setUnderAge] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const { siteName } = getConfig();

  const confirm = () => {
    rememberAgeVerified();
    onConfirmed();
  };

  return (
    <AlertDialog open>
      <AlertDialogContent
        onEscapeKeyDown={(event) => event.preventDefault()}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          confirmButton.current?.focus();
        }}
      >
        <div className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
          <ShieldCheck aria-hidden="true" className="size-6" />
        </div>
        {underAge ? (
          <>
            <AlertDialogTitle>Sorry, you can't enter yet</AlertDialogTitle>
            <AlertDialogDescription>
              {siteName} is only for adults aged 21 or older, or of the legal age where you live if that is
              higher. Thank you for being honest — please come back when you are of age.
            </AlertDialogDescription>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="ghost" onClick={() => setUnderAge(false)}>
                Go back
              </Button>
              <Button asChild>
                <a href={LEAVE_URL} rel="noopener noreferrer">
                  Leave {siteName}
                </a>
              </Button>
            </div>
          </>
        ) : (
          <>
            <AlertDialogTitle>Are you 21 or older?</AlertDialogTitle>
            <AlertDialogDescription>
              {siteName} covers the legal cannabis industry and is only for adults aged 21 or older, or of the
              legal age where you live if that is higher. Please confirm your age to continue.
            </AlertDialogDescription>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setUnderAge(true)}>
                I am under 21
              </Button>
              <Button ref={confirmButton} onClick={confirm}>
                I am 21 or older
              </Button>
            </div>
            <p className="text-muted-foreground text-xs">
              By entering you agree to our{' '}
              <Link to="/terms-of-service" className="underline underline-offset-2 hover:text-foreground">
                Terms of Service
              </Link>
              . We remember your answer with a cookie for one year (see our{' '}
              <Link to="/cookie-policy" className="underline underline-offset-2 hover:text-foreground">
                Cookie Policy
              </Link>
              ).
            </p>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}
