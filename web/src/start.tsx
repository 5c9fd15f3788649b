import { setNonce } from 'get-nonce';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { pages } from './app/pages.ts';
import { loadConfig } from './lib/config.ts';
import { initTheme } from './lib/theme.ts';
import { cn } from './lib/utils.ts';
import { yieldToMain } from './lib/yield-to-main.ts';

/**
 * The page the server sent prerendered in #root (decision 157), when it is the one the address shows:
 * the server sends a prerendered page only for its exact path without a query string.
 */
function prerenderedPage(root: HTMLElement): keyof typeof pages | null {
  const path = root.dataset.prerendered;
  if (!path || path !== window.location.pathname || window.location.search !== '') return null;
  return path in pages ? (path as keyof typeof pages) : null;
}

/** Starts the app: hydrates the prerendered page, or renders into the empty shell. */
export async function start(): Promise<void> {
  const config = await loadConfig();
  // Radix dialogs lock scrolling with an injected <style>; the CSP admits it only with this nonce.
  if (config.styleNonce) setNonce(config.styleNonce);
  initTheme();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  const page = prerenderedPage(root);
  if (page) {
    // The page's code first, so the whole prerendered tree hydrates in one pass.
    await yieldToMain();
    await pages[page].load();
    await yieldToMain();
    // tailwind-merge builds its tables on first use: in a task of its own rather than inside the
    // hydration's first slice.
    cn('p-0', 'p-1');
    await yieldToMain();
    // As a transition, hydration yields to the browser every few milliseconds instead of blocking it.
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    createRoot(root).render(app);
  }
}
