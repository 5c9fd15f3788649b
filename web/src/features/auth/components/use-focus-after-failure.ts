import { useCallback, useRef } from 'react';

/**
 * A submit button is disabled while busy, which drops keyboard focus to the page body; after a
 * failed attempt this puts it back on the button, so keyboard and screen-reader users stay in the form.
 */
export function useFocusAfterFailure() {
  const ref = useRef<HTMLButtonElement>(null);
  const restore = useCallback(() => {
    requestAnimationFrame(() => {
      if (!document.activeElement || document.activeElement === document.body) ref.current?.focus();
    });
  }, []);
  return { ref, restore };
}
