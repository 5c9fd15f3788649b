import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The public pages the build prerendered (decision 157): web/dist/prerendered/pages.json names, for
 * each exact path, its HTML document and the hashes of the inline `style` attributes React rendered
 * into it (Radix sets a few). Written by scripts/prerender.ts; read once at start.
 */
export interface PrerenderIndex {
  [path: string]: { file: string; styleHashes: string[] };
}

/** A page ready to send: the document around the app-config placeholder, and its style hashes. */
export interface PrerenderedPage {
  head: string;
  tail: string;
  styleHashes: string[];
}

/** The placeholders the prerender rendered for the run-time configuration (web/src/prerender.tsx). */
export const CONFIG_PLACEHOLDERS = {
  siteName: '__HG_SITE_NAME__',
  supportEmail: '__HG_SUPPORT_EMAIL__',
} as const;

/** Text that is safe in HTML text and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
}

/** Puts this deployment's site name and support address where the prerender left placeholders. */
export function fillConfig(html: string, config: { siteName: string; supportEmail: string }): string {
  return html
    .replaceAll(CONFIG_PLACEHOLDERS.siteName, escapeHtml(config.siteName))
    .replaceAll(CONFIG_PLACEHOLDERS.supportEmail, escapeHtml(config.supportEmail));
}

/**
 * Loads the prerendered pages of a build, with the configuration filled in and split at the
 * app-config placeholder. A build without them (an older build, a static export) gives none: every
 * page is then the empty app shell, as before.
 */
export async function loadPrerenderedPages(
  webDir: string,
  config: { siteName: string; supportEmail: string },
  placeholder: string,
): Promise<Map<string, PrerenderedPage>> {
  const dir = join(webDir, 'prerendered');
  let index: PrerenderIndex;
  try {
    index = JSON.parse(await readFile(join(dir, 'pages.json'), 'utf8')) as PrerenderIndex;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const pages = new Map<string, PrerenderedPage>();
  for (const [path, { file, styleHashes }] of Object.entries(index)) {
    const html = fillConfig(await readFile(join(dir, file), 'utf8'), config);
    const [head, tail, ...rest] = html.split(placeholder);
    if (head === undefined || tail === undefined || rest.length > 0) {
      throw new Error(`${join(dir, file)} must hold the ${placeholder} placeholder exactly once`);
    }
    pages.set(path, { head, tail, styleHashes });
  }
  return pages;
}
