import { useEffect } from 'react';
import { getConfig } from './config.ts';

/** Sets `<title>` to "{title} · {site name}", or the site name alone when no title is given. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    const { siteName } = getConfig();
    document.title = title ? `${title} · ${siteName}` : siteName;
  }, [title]);
}
