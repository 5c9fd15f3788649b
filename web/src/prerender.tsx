/**
 * The build's prerender (decision 157): renders the public pages to HTML in Node, with the real
 * components, as a visitor sees them before any data arrive (header, page heading and introduction,
 * the placeholders of what is still loading, footer). vite.config.ts builds this file for Node after
 * the app and writes each page into web/dist/prerendered/; the server sends that HTML for the page's
 * exact path and the app hydrates it (web/src/main.tsx).
 *
 * Nothing here knows a member: no one is signed in at build time, stores that read the browser render
 * their `serverValue`, and the run-time configuration is rendered as placeholders that the server
 * replaces with its own values when it starts (server/http/prerendered.ts).
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppFrame } from './app/app.tsx';
import { pages } from './app/pages.ts';
import { AppRoutes } from './app/router.tsx';
import { type AppConfig, DEFAULT_AUTO_SIGN_OUT_MS, setConfigForPrerender } from './lib/config.ts';
import { serverDocumentTitle } from './lib/use-document-title.ts';

/**
 * The pages prerendered: the public ones without parameters. Not /profile or /admin (a member's own),
 * /booking (its form is a member's), /scammer-database (what it shows waits for the session: a
 * visitor's placeholder would change size under a returning member), /email-confirmed (reads the
 * link's fragment) or pages with parameters (/pass-or-gas/:id…: their content is data).
 */
export const PRERENDERED_PATHS = [
  '/',
  '/news',
  '/market-index',
  '/pass-or-gas',
  '/pass-or-gas/how-rankings-work',
  '/brand-directory',
  '/auth',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/personal-data',
  '/how-reports-are-reviewed',
] as const satisfies readonly (keyof typeof pages)[];

/**
 * Placeholders for the run-time configuration the pages show; the server puts its values in. The same
 * strings as server/http/prerendered.ts CONFIG_PLACEHOLDERS (the build checks every page has them).
 */
export const CONFIG_PLACEHOLDERS = {
  siteName: '__HG_SITE_NAME__',
  supportEmail: '__HG_SUPPORT_EMAIL__',
} as const;

const prerenderConfig: AppConfig = {
  supabaseUrl: 'http://localhost',
  anonKey: '',
  siteName: CONFIG_PLACEHOLDERS.siteName,
  supportEmail: CONFIG_PLACEHOLDERS.supportEmail,
  styleNonce: null,
  autoSignOutMs: DEFAULT_AUTO_SIGN_OUT_MS,
  payments: 'demo',
};

export interface PrerenderedPage {
  /** The markup inside `<div id="root">`. */
  html: string;
  /** The page's `<title>` (with the site name placeholder). */
  title: string;
}

/** Renders one page, waiting for its lazy code (all of it is in this Node build). */
export async function prerenderPage(path: (typeof PRERENDERED_PATHS)[number]): Promise<PrerenderedPage> {
  setConfigForPrerender(prerenderConfig);
  serverDocumentTitle.current = null;
  // Loaded first, the page renders without suspending, as it does when the browser hydrates it.
  await pages[path].load();
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppFrame>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppFrame>
    </StrictMode>,
    {
      onError: (error) => void errors.push(error),
      // Every boundary inline: an outlined one would need React's inline script, which the page's
      // Content-Security-Policy refuses.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  let html = '';
  const decoder = new TextDecoder();
  for await (const chunk of prelude) {
    html += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  }
  html += decoder.decode();
  if (errors.length) throw new AggregateError(errors, `prerendering ${path} failed`);
  if (/<script\b/i.test(html)) throw new Error(`prerendering ${path} produced an inline script`);
  return { html, title: serverDocumentTitle.current ?? prerenderConfig.siteName };
}
