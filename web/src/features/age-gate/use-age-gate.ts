import { useEffect, useLayoutEffect } from 'react';
import { type NavigateFunction, useNavigate } from 'react-router';

/** What age-gate.js listens for on document: the address changed, open or close the gate for it. */
const CHECK_EVENT = 'age-gate:check';

/**
 * Keeps the 21+ gate (decision 161) in step with the app's navigation: the gate closes on a legal page
 * and opens again on the next page until it is answered. The gate's links to the legal pages navigate
 * within the app once it runs (before, they load the page). Without a gate on the page (the browser
 * answered it before), nothing happens.
 */
export function useAgeGate(pathname: string): void {
  const navigate = useNavigate();
  // Before the browser paints the new page: a page that needs the gate is never shown without it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the address changes, by design
  useLayoutEffect(() => {
    document.dispatchEvent(new Event(CHECK_EVENT));
  }, [pathname]);
  useEffect(() => followGateLinks(navigate), [navigate]);
}

function followGateLinks(navigate: NavigateFunction): (() => void) | undefined {
  const gate = document.getElementById('age-gate');
  if (!gate) return;
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[data-app-link]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    navigate(link.pathname);
  };
  gate.addEventListener('click', onClick);
  return () => gate.removeEventListener('click', onClick);
}
