import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

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

/** The page's policy: only our own scripts; styles from our files or carrying this response's nonce. */
export function contentSecurityPolicy(nonce: string, apiOrigin: string | null): string {
  const connect = ["'self'"];
  if (apiOrigin) connect.push(apiOrigin, apiOrigin.replace(/^http/, 'ws'));
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
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

export async function spaPlugin(
  app: FastifyInstance,
  options: { webDir: string; publicConfig: PublicConfig },
): Promise<void> {
  const template = await readFile(join(options.webDir, 'index.html'), 'utf8');
  if (!template.includes(PLACEHOLDER)) {
    throw new Error(`${join(options.webDir, 'index.html')} lacks the ${PLACEHOLDER} placeholder`);
  }
  const [head, tail] = template.split(PLACEHOLDER) as [string, string];
  const apiOrigin = options.publicConfig.supabaseUrl
    ? new URL(options.publicConfig.supabaseUrl).origin
    : null;

  const sendIndex = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    const config = jsonForHtml({ ...options.publicConfig, styleNonce: nonce });
    return reply
      .header('content-security-policy', contentSecurityPolicy(nonce, apiOrigin))
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(`${head}<script id="app-config" type="application/json">${config}</script>${tail}`);
  };

  await app.register(fastifyStatic, {
    root: options.webDir,
    prefix: '/',
    // One route per built file, found at start-up; everything else falls through to the app below.
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['index.html', '**/*.gz', '**/*.br'],
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.includes('/assets/') ? IMMUTABLE : 'public, max-age=3600, must-revalidate',
      );
    },
  });

  app.get('/app-config.json', (_request, reply) =>
    reply.header('cache-control', 'no-store').send(options.publicConfig),
  );
  app.get('/', (_request, reply) => sendIndex(reply));

  // History fallback: any other GET for a page is the app (it shows its own not-found page);
  // a missing file (a path with an extension, e.g. an old asset) is a real 404.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]+$/i.test(path);
    if (isPage) return sendIndex(reply);
    return reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send({ error: 'not_found', message: 'Not found' });
  });
}
