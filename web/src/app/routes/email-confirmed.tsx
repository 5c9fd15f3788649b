import { CircleAlert, CircleCheck, MailQuestion } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { adoptConfirmationCode } from '#web/features/auth/api/adopt-confirmation.ts';
import { endLinkSession } from '#web/features/auth/api/end-link-session.ts';
import { type LinkOutcome, parseLinkFragment } from '#web/features/auth/link-fragment.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** Where a PKCE link's code stands: being exchanged, signed in here, or signed up in another browser. */
type Exchange = 'pending' | 'signed-in' | 'elsewhere';

/**
 * Where the sign-up confirmation link lands (product §email-confirmed). A PKCE link (decision 165)
 * opened in the browser that signed up signs the member in and says so; opened anywhere else it only
 * confirms, and the visitor is told to return to the browser they signed up in or sign in here. An
 * implicit link's session (a mail sent before decision 165) is ended rather than adopted (decision 063).
 * Opened without a link's result, it says so rather than claiming a confirmation.
 */
export default function EmailConfirmedPage() {
  const navigate = useNavigate();
  const [outcome] = useState<LinkOutcome>(() =>
    parseLinkFragment(window.location.hash, window.location.search),
  );
  const [exchange, setExchange] = useState<Exchange>('pending');
  useDocumentTitle(
    outcome.kind === 'error'
      ? 'Email not confirmed'
      : outcome.kind === 'none'
        ? 'Email confirmation'
        : 'Email confirmed',
  );

  useEffect(() => {
    if (outcome.kind === 'none') return;
    // The tokens and the code must not stay in the address bar or the history.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (outcome.kind === 'code') {
      let live = true;
      adoptConfirmationCode(outcome.code, outcome.flowId)
        .catch(() => 'elsewhere' as const)
        .then((result) => {
          if (live) setExchange(result);
        });
      return () => {
        live = false;
      };
    }
    if (outcome.kind === 'session') {
      endLinkSession(outcome.accessToken).catch(() => {
        // It expires on its own; nothing here depends on it.
      });
    }
  }, [outcome]);

  const failed = outcome.kind === 'error';
  const nothing = outcome.kind === 'none';
  const pending = outcome.kind === 'code' && exchange === 'pending';
  const signedIn = outcome.kind === 'code' && exchange === 'signed-in';
  const { heading, text, note, action, target } = nothing
    ? {
        heading: 'No confirmation link was opened',
        text: 'This page shows the result of the link in a confirmation email, and this visit did not come from one. If you signed up, open the link in the email we sent you; if you have already confirmed your address, sign in.',
        note: null,
        action: 'Go to sign in',
        target: '/auth',
      }
    : failed
      ? {
          heading: 'Your email could not be confirmed',
          text: outcome.description,
          note: null,
          action: 'Please return to the main browser and sign in',
          target: '/auth',
        }
      : signedIn
        ? {
            heading: 'Success!',
            text: 'Your email has been confirmed and you are signed in.',
            note: null,
            action: 'Continue to HighGrade',
            target: '/',
          }
        : {
            heading: 'Success!',
            text: 'Your email has been confirmed successfully.',
            note: 'You are not signed in in this browser: the link was opened somewhere other than where you signed up. Return to that browser and sign in, or sign in here.',
            action: 'Please return to the main browser and sign in',
            target: '/auth',
          };
  if (pending) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16">
        <Card className="text-center">
          <CardHeader className="items-center">
            <h1 className="mt-2 font-bold text-3xl tracking-tight">Confirming your email…</h1>
          </CardHeader>
          <CardContent>
            <p role="status" className="text-lg text-muted-foreground">
              Checking the link and signing you in if you signed up in this browser.
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card className="text-center">
        <CardHeader className="items-center">
          <div
            className={`flex size-16 items-center justify-center rounded-full bg-secondary ${failed ? 'text-destructive' : nothing ? 'text-muted-foreground' : 'text-primary'}`}
          >
            {failed ? (
              <CircleAlert aria-hidden="true" className="size-9" />
            ) : nothing ? (
              <MailQuestion aria-hidden="true" className="size-9" />
            ) : (
              <CircleCheck aria-hidden="true" className="size-9" />
            )}
          </div>
          <h1 className="mt-2 font-bold text-3xl tracking-tight">{heading}</h1>
        </CardHeader>
        <CardContent>
          <p className="text-lg text-muted-foreground">{text}</p>
          {note && <p className="mt-4 text-muted-foreground">{note}</p>}
          <Button
            size="lg"
            className="mt-8 h-auto min-h-11 w-full whitespace-normal"
            onClick={() => navigate(target)}
          >
            {action}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
