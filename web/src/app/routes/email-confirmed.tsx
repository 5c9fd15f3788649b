import { CircleAlert, CircleCheck, MailQuestion } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { endLinkSession } from '#web/features/auth/api/end-link-session.ts';
import { type LinkOutcome, parseLinkFragment } from '#web/features/auth/link-fragment.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/**
 * Where the sign-up confirmation link lands (product §email-confirmed). The link may have been opened
 * anywhere, so the session it created is ended rather than adopted, and the visitor signs in from their main
 * browser, as the page says (decision 063). Opened without a link's result, it says so rather than
 * claiming a confirmation (product §email-confirmed).
 */
export default function EmailConfirmedPage() {
  const navigate = useNavigate();
  const [outcome] = useState<LinkOutcome>(() => parseLinkFragment(window.location.hash));
  useDocumentTitle(
    outcome.kind === 'error'
      ? 'Email not confirmed'
      : outcome.kind === 'none'
        ? 'Email confirmation'
        : 'Email confirmed',
  );

  useEffect(() => {
    if (outcome.kind === 'none') return;
    // The tokens must not stay in the address bar or the history.
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}`);
    if (outcome.kind === 'session') {
      endLinkSession(outcome.accessToken).catch(() => {
        // It expires on its own; nothing here depends on it.
      });
    }
  }, [outcome]);

  const failed = outcome.kind === 'error';
  const nothing = outcome.kind === 'none';
  const { heading, text, action } = nothing
    ? {
        heading: 'No confirmation link was opened',
        text: 'This page shows the result of the link in a confirmation email, and this visit did not come from one. If you signed up, open the link in the email we sent you; if you have already confirmed your address, sign in.',
        action: 'Go to sign in',
      }
    : {
        heading: failed ? 'Your email could not be confirmed' : 'Success!',
        text: outcome.kind === 'error' ? outcome.description : 'Your email has been confirmed successfully.',
        action: 'Please return to the main browser and sign in',
      };
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
          <Button
            size="lg"
            className="mt-8 h-auto min-h-11 w-full whitespace-normal"
            onClick={() => navigate('/auth')}
          >
            {action}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
