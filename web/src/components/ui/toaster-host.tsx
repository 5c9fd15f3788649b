import { lazy, Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useToast } from './use-toast.ts';

// Radix Toast loads with the first toast; most visits never show one.
const Toaster = lazy(() => import('./toaster.tsx'));

/** Mount once near the root. */
export function ToasterHost() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (toasts.length > 0) setNeeded(true);
  }, [toasts.length]);
  if (!needed && toasts.length === 0) return null;
  // Outside the app's root: a modal dialog (the sign-in dialog) hides the root from assistive
  // technology while it is open, and its error toasts must stay readable (see toaster.tsx).
  return createPortal(
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>,
    document.body,
  );
}
