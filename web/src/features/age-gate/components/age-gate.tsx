import { ShieldCheck } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { getConfig } from '#web/lib/config.ts';
import { rememberAgeVerified } from '../age-verification.ts';

/** Where a visitor who is under age is sent when they choose to leave. */
const LEAVE_URL = 'https://www.google.com/';

/**
 * The 21+ confirmation. A modal alert dialog: focus stays inside, the rest of the page is hidden
 * from assistive technology, and neither Escape nor a click outside dismisses it — only an answer.
 *
 * The browser's own modal `<dialog>` (top layer, the page behind inert), not the Radix dialog: the gate
 * opens on every first visit, and Radix's machinery (focus scope, hiding the page's siblings one by
 * one, scroll lock, presence animations) cost that visit a long task right after the page appeared
 * (Total Blocking Time, decision 157). What the browser does not do is added here: focus goes round
 * inside the dialog, the page is also `aria-hidden` (for tools that do not know `inert`) and does not
 * scroll, and Escape (or a browser closing it anyway) leaves it open.
 */
export default function AgeGate({ onConfirmed }: { onConfirmed: () => void }) {
  const [underAge, setUnderAge] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const firstAction = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  const titleId = useId();
  const descriptionId = useId();
  const { siteName } = getConfig();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const page = document.getElementById('root');
    const root = document.documentElement;
    // Opening a modal dialog makes the whole page inert, which costs a style recalculation of every
    // element (measured: the longest part of a first visit's work after the paint). It runs in a task
    // of its own, after the commit and whatever else this task does (decision 158).
    const opening = setTimeout(() => {
      if (!element.open) element.showModal();
      page?.setAttribute('aria-hidden', 'true');
      // An inline style on the root element restyles the root alone; a class there restyles the page.
      root.style.overflow = 'hidden';
      firstAction.current?.focus();
    }, 0);
    return () => {
      clearTimeout(opening);
      page?.removeAttribute('aria-hidden');
      root.style.removeProperty('overflow');
      if (element.open) element.close();
    };
  }, []);

  // Each view starts with its answer focused: "I am 21 or older", or "Go back" (the first view's
  // focus is given when the dialog opens, above).
  const firstView = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes, by design
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    firstAction.current?.focus();
  }, [underAge]);

  const confirm = () => {
    answered.current = true;
    rememberAgeVerified();
    onConfirmed();
  };

  /** Tab and Shift+Tab go round the dialog's controls instead of leaving it for the browser's. */
  const keepFocusInside = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onKeyDown={keepFocusInside}
      onCancel={(event) => event.preventDefault()}
      onClose={() => {
        // Chrome closes a dialog whose Escape was refused twice without other input: open it again.
        if (!answered.current && dialog.current && !dialog.current.open) dialog.current.showModal();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md animate-in-zoom gap-4 overflow-y-auto rounded-xl border bg-background p-6 text-foreground shadow-2xl outline-none backdrop:animate-in-fade backdrop:bg-black/70 backdrop:backdrop-blur-sm open:grid"
    >
      <div className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
        <ShieldCheck aria-hidden="true" className="size-6" />
      </div>
      {underAge ? (
        <>
          <h2 id={titleId} className="font-bold text-xl tracking-tight">
            Sorry, you can't enter yet
          </h2>
          <p id={descriptionId} className="text-muted-foreground">
            {siteName} is only for adults aged 21 or older, or of the legal age where you live if that is
            higher. Thank you for being honest — please come back when you are of age.
          </p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button ref={firstAction} variant="ghost" onClick={() => setUnderAge(false)}>
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
          <h2 id={titleId} className="font-bold text-xl tracking-tight">
            Are you 21 or older?
          </h2>
          <p id={descriptionId} className="text-muted-foreground">
            {siteName} covers the legal cannabis industry and is only for adults aged 21 or older, or of the
            legal age where you live if that is higher. Please confirm your age to continue.
          </p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setUnderAge(true)}>
              I am under 21
            </Button>
            <Button ref={firstAction} onClick={confirm}>
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
    </dialog>,
    document.body,
  );
}
