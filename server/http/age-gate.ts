/**
 * The 21+ gate in the page's HTML (decision 161). web/index.html holds the gate's script (in <head>)
 * and its dialog (at the start of <body>), each between `<!--age-gate-->` and `<!--/age-gate-->`; so
 * does every prerendered page, built from it. A browser that answered the gate carries the cookie, and
 * gets the page without them: nothing to download, parse or run for a gate it will not show.
 */

/** The cookie the gate sets once answered (web/public/age-gate.js; quoted in the cookie policy). */
export const AGE_COOKIE_NAME = 'hg_age_verified';

const BLOCK = /<!--age-gate-->([\s\S]*?)<!--\/age-gate-->/g;

/** Whether a request's Cookie header says this browser answered the gate. */
export function answeredAgeGate(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((part) => part.trim() === `${AGE_COOKIE_NAME}=1`);
}

/** The document as a first visit gets it: the gate's parts kept, their markers gone. */
export function withAgeGate(html: string): string {
  return html.replace(BLOCK, '$1');
}

/** The document as a browser that answered the gate gets it: without the gate's script and dialog. */
export function withoutAgeGate(html: string): string {
  return html.replace(BLOCK, '');
}
