import { useEffect } from 'react';
import { getConfig } from './config.ts';

/** "{title} · {site name}", or the site name alone when no title is given. */
export function documentTitle(title?: string): string {
  const { siteName } = getConfig();
  return title ? `${title} · ${siteName}` : siteName;
}

/**
 * The title the last server render asked for: the build's prerender writes it into the page's
 * `<title>` (decision 157). Only ever set by a server render.
 */
export const serverDocumentTitle: { current: string | null } = { current: null };

/** Sets `<title>` to "{title} · {site name}", or the site name alone when no title is given. */
export function useDocumentTitle(title?: string): void {
  if (import.meta.env.SSR) serverDocumentTitle.current = documentTitle(title);
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
