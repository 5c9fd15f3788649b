import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HEAD_MARKER, prepareHead, renderHead, type SiteInfo } from '../seo/head.ts';
import type { PageHeads } from '../seo/pages.ts';
import { answeredAgeGate, withAgeGate, withoutAgeGate } from './age-gate.ts';
import { isAppRoute } from './app-routes.ts';
import { fillConfig, loadPrerenderedPages, type PrerenderedPage } from './prerendered.ts';

/** What the web app learns from the server at run time, so one build serves any deployment. */
export interface PublicConfig {
  supabaseUrl: string | null;
  anonKey: string;
  siteName: string;
  supportEmail: string;
  /** Idle time before the web app signs a member out (AUTO_SIGN_OUT_MS). */
  autoSignOutMs: number;
  /** 'stripe' when card payments are configured, else 'demo' (no payment is taken; decision 131). */
  payments: 'stripe' | 'demo';
}

const PLACEHOLDER = '<!--app-config-->';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** JSON that is safe inside a <script> element: nothing in it can close the element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/**
 * The page's policy: only our own scripts; styles from our files or carrying this response's nonce,
 * and on a prerendered page the few `style` attributes its HTML was built with, by hash.
 */
export function contentSecurityPolicy(
  nonce: string,
  apiOrigin: string | null,
  styleHashes: string[] = [],
): string {
  const connect = ["'self'"];
  if (apiOrigin) connect.push(apiOrigin, apiOrigin.replace(/^http/, 'ws'));
  const styleAttributes = styleHashes.length
    ? ` 'unsafe-hashes' ${styleHashes.map((hash) => `'${hash}'`).join(' ')}`
    : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'${styleAttributes}`,
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    `connect-src ${connect.join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
  ].join('; ');
}

/**
 * Marks the document when no social sign-in is configured, so the sign-in form's place for its
 * button takes no room from the first paint on (web/src/styles.css, decision 157): the app learns
 * the provider from /auth/v1/settings only after it starts.
 */
export function markSocialSignIn(html: string, socialSignIn: boolean): string {
  return socialSignIn ? html : html.replace(/<html\b/, '<html data-social-sign-in="none"');
}

/** A page as a first visit gets it (with the age gate) and as a browser that answered the gate does. */
interface PageVariants {
  firstVisit: PrerenderedPage;
  answered: PrerenderedPage;
  /** A prerendered page's own title, without the site name (the build rendered it). */
  title: string | undefined;
}

/**
 * The page's variants, its `<title>` and description replaced by the marker where the server puts the
 * page's own head (decision 183).
 */
function pageVariants(page: PrerenderedPage, siteName: string): PageVariants {
  const { html: head, title } = prepareHead(page.head);
  const suffix = ` · ${siteName}`;
  return {
    firstVisit: { ...page, head: withAgeGate(head), tail: withAgeGate(page.tail) },
    answered: { ...page, head: withoutAgeGate(head), tail: withoutAgeGate(page.tail) },
    title: title?.endsWith(suffix) ? title.slice(0, -suffix.length) : undefined,
  };
}

/** The head when a page's own could not be read (the database busy or down): the site's, indexable. */
const FALLBACK_DESCRIPTION =
  'News, market index, Pass or Gas product voting, brand directory and the Scammer Network for the legal cannabis industry (21+).';

export async function spaPlugin(
  app: FastifyInstance,
  options: {
    webDir: string;
    publicConfig: PublicConfig;
    socialSignIn: boolean;
    site: SiteInfo;
    pageHeads: PageHeads;
  },
): Promise<void> {
  const template = fillConfig(
    markSocialSignIn(await readFile(join(options.webDir, 'index.html'), 'utf8'), options.socialSignIn),
    options.publicConfig,
  );
  if (!template.includes(PLACEHOLDER)) {
    throw new Error(`${join(options.webDir, 'index.html')} lacks the ${PLACEHOLDER} placeholder`);
  }
  const [head = '', tail = ''] = template.split(PLACEHOLDER);
  const siteName = options.publicConfig.siteName;
  const shell = pageVariants({ head, tail, styleHashes: [] }, siteName);
  shell.title = undefined;
  // The public pages' HTML as the build prerendered it (decision 157), for their exact paths.
  const prerendered = new Map<string, PageVariants>();
  for (const [path, page] of await loadPrerenderedPages(options.webDir, options.publicConfig, PLACEHOLDER)) {
    prerendered.set(
      path,
      pageVariants({ ...page, head: markSocialSignIn(page.head, options.socialSignIn) }, siteName),
    );
  }
  const apiOrigin = options.publicConfig.supabaseUrl
    ? new URL(options.publicConfig.supabaseUrl).origin
    : null;

  /** The page's head, and whether its address names nothing (then answered 404, the app's own page). */
  const headOf = async (
    request: FastifyRequest,
    variants: PageVariants,
  ): Promise<{ html: string; missing: boolean; noindex: boolean }> => {
    const path = request.url.split('?')[0] ?? '/';
    try {
      const head = await options.pageHeads.headFor(path, prerendered.get(path)?.title);
      return { html: renderHead(head, options.site), missing: head.missing === true, noindex: head.noindex };
    } catch (error) {
      request.log.warn({ err: error, path }, 'page head: could not read the page, sending the site head');
      const html = renderHead(
        { title: variants.title, description: FALLBACK_DESCRIPTION, canonicalPath: null, noindex: false },
        options.site,
      );
      return { html, missing: false, noindex: false };
    }
  };

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    // With a query string the page may show something else (a tab, a filter): the app renders it.
    const variants = (!request.url.includes('?') && prerendered.get(request.url)) || shell;
    const { html: headHtml, missing, noindex } = await headOf(request, variants);
    // A browser that answered the age gate gets the page without it (decision 161).
    const page = answeredAgeGate(request.headers.cookie) ? variants.answered : variants.firstVisit;
    const nonce = randomBytes(16).toString('base64');
    const config = jsonForHtml({ ...options.publicConfig, styleNonce: nonce });
    // A brand, product, post or member that does not exist: the app says so, with a real 404 for
    // crawlers and link checkers (a signed-in viewer's app may still show what it can read).
    // The header says what the head's robots tag says, for crawlers that read only headers; robots.txt
    // lets them fetch the page, or they would never see either (decision 237).
    if (noindex) reply.header('x-robots-tag', 'noindex, nofollow');
    return reply
      .status(missing ? 404 : 200)
      .header('content-security-policy', contentSecurityPolicy(nonce, apiOrigin, page.styleHashes))
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(
        `${page.head.replace(HEAD_MARKER, () => headHtml)}<script id="app-config" type="application/json">${config}</script>${page.tail}`,
      );
  };

  await app.register(fastifyStatic, {
    root: options.webDir,
    prefix: '/',
    // One route per built file, found at start-up; everything else falls through to the app below.
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['index.html', 'prerendered/**', '**/*.gz', '**/*.br'],
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.includes('/assets/')
          ? IMMUTABLE
          : // The gate's script works with the gate's markup, which comes with each page (decision 161).
            // (The file sent may be its pre-compressed copy.)
            /\/age-gate\.js(\.br|\.gz)?$/.test(path)
            ? 'no-cache'
            : 'public, max-age=3600, must-revalidate',
      );
    },
  });

  app.get('/app-config.json', (_request, reply) =>
    reply.header('cache-control', 'no-store').send(options.publicConfig),
  );
  app.get('/', (request, reply) => sendIndex(request, reply));

  // History fallback: any other GET for a page is the app (it shows its own not-found page). A path
  // with an extension is a missing file (an old asset) and a real 404 — unless it is one of the app's
  // routes, whose segments may hold dots (`/u/nina.grows`, decision 170).
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (!/\.[a-z0-9]+$/i.test(path) || isAppRoute(path));
    if (isPage) return sendIndex(request, reply);
    return reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send({ error: 'not_found', message: 'Not found' });
  });
}
