import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import {
  createMember,
  deleteMember,
  type Member,
  randomClientAddress,
  type ServerInfo,
  serverFromEnv,
} from './support/api.ts';
import { waitForApp } from './support/app.ts';
import { PAGE_AT_FAILURE } from './support/count-reporter.ts';

export { expect, waitForApp };

/** The age verification cookie the gate sets (web/public/age-gate.js, decision 161). */
export const AGE_COOKIE = 'hg_age_verified';

/** Every route of product §routes, with the heading each page shows. */
export const ROUTES: ReadonlyArray<{ path: string; heading: string | RegExp }> = [
  { path: '/', heading: /The trusted hub for the legal cannabis industry/ },
  { path: '/news', heading: 'News' },
  { path: '/market-index', heading: 'Market Index' },
  { path: '/pass-or-gas', heading: 'Pass or Gas' },
  { path: '/scammer-database', heading: 'Scammer Network' },
  { path: '/brand-directory', heading: 'Brand Directory' },
  { path: '/auth', heading: 'HighGrade' },
  { path: '/auth?tab=signup', heading: 'HighGrade' },
  { path: '/booking', heading: 'Book Your Promo Session' },
  { path: '/profile', heading: 'Profile' },
  { path: '/profile?tab=privacy', heading: 'Profile' },
  // A visitor opening the admin dashboard is sent to sign in (tests/e2e/admin.spec.ts covers the rest).
  { path: '/admin', heading: 'HighGrade' },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms-of-service', heading: 'Terms of Service' },
  { path: '/cookie-policy', heading: 'Cookie Policy' },
  { path: '/personal-data', heading: 'Personal data HighGrade stores' },
  { path: '/email-confirmed', heading: 'No confirmation link was opened' },
  // A public member profile (product §public-profile); the profile's own states: tests/e2e/member-profile.spec.ts.
  { path: '/u/nobody_has_this_name', heading: 'Member not found' },
  { path: '/no/such/page', heading: /Oops! Page not found/ },
];

interface TestFixtures {
  /** Pre-set the age cookie so the 21+ gate stays closed (default). Tests about the gate turn it off. */
  ageVerified: boolean;
  /** Console errors, uncaught page errors and CSP violations are a failure unless a test expects them. */
  allowConsoleErrors: boolean;
  /** What the page logged as errors so far (checked after each test). */
  consoleErrors: string[];
  /** The real server's keys and data directory; tests that need accounts skip without it. */
  server: ServerInfo;
  /** A confirmed account made for the test (through the admin API) and deleted after it. */
  member: Member;
}

/** The run-time configuration the server gives the app (see web/src/lib/config.ts). */
export interface AppConfig {
  siteName: string;
  supportEmail: string;
}

interface WorkerFixtures {
  /** Whether the server under test sends the page's Content-Security-Policy itself. */
  serverSendsCsp: boolean;
  appConfig: AppConfig;
}

/** What the emulation below inlines when the suite runs against a static build. */
const EMULATED_CONFIG = { siteName: 'HighGrade', supportEmail: 'support@highgrade.app' };

/**
 * The policy the real server sends (server/http/spa.ts, the runtime contract). Used only when the
 * suite runs against a static build (vite preview), which sends no policy and inlines no config.
 */
function emulatedCsp(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob: https:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Against a static build, answer page requests the way the server does: inline the run-time
 * configuration (with a fresh style nonce) and send the Content-Security-Policy, so CSP problems
 * show up in every setup.
 */
async function emulateServerHtml(page: Page, origin: string): Promise<void> {
  await page.route(
    (url) => url.origin === origin && !/\.[a-z0-9]+$/i.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const nonce = randomBytes(16).toString('base64');
      const config = JSON.stringify({
        ...EMULATED_CONFIG,
        supabaseUrl: null,
        anonKey: 'e2e-anon-key',
        styleNonce: nonce,
      });
      // The server also fills in the site name and support address (server/http/prerendered.ts).
      const body = (await response.text())
        .replace('<!--app-config-->', `<script id="app-config" type="application/json">${config}</script>`)
        .replaceAll('__HG_SITE_NAME__', EMULATED_CONFIG.siteName)
        .replaceAll('__HG_SUPPORT_EMAIL__', EMULATED_CONFIG.supportEmail);
      const headers: Record<string, string> = {
        ...response.headers(),
        'content-security-policy': emulatedCsp(nonce),
      };
      // The body was decoded and changed: its old length and encoding no longer apply.
      delete headers['content-length'];
      delete headers['content-encoding'];
      await route.fulfill({ response, body, headers });
    },
  );
}

function waitForAppOnNavigation(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await waitForApp(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args);
    await waitForApp(page);
    return response;
  };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  ageVerified: [true, { option: true }],
  allowConsoleErrors: [false, { option: true }],

  serverSendsCsp: [
    async ({ playwright }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      if (!baseURL) throw new Error('No baseURL: set E2E_BASE_URL or let the global setup start a server');
      const request = await playwright.request.newContext({ baseURL });
      const response = await request.get('/');
      await use(Boolean(response.headers()['content-security-policy']));
      await request.dispose();
    },
    { scope: 'worker' },
  ],

  appConfig: [
    async ({ playwright, serverSendsCsp }, use, workerInfo) => {
      if (!serverSendsCsp) return use(EMULATED_CONFIG);
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      const config = (await (await request.get('/app-config.json')).json()) as AppConfig;
      await request.dispose();
      await use(config);
    },
    { scope: 'worker' },
  ],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  server: async ({}, use, testInfo) => {
    const server = serverFromEnv();
    testInfo.skip(!server, 'needs the real server (started by the global setup), not a static build');
    await use(server as ServerInfo);
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  consoleErrors: async ({}, use) => {
    await use([]);
  },

  member: async ({ server }, use) => {
    const member = await createMember(server);
    await use(member);
    await deleteMember(server, member);
  },

  page: async (
    { page, baseURL, ageVerified, allowConsoleErrors, consoleErrors, serverSendsCsp },
    use,
    testInfo,
  ) => {
    if (!baseURL) throw new Error('No baseURL');
    if (ageVerified) {
      await page.context().addCookies([{ name: AGE_COOKIE, value: '1', url: baseURL, sameSite: 'Lax' }]);
    }
    if (!serverSendsCsp) await emulateServerHtml(page, new URL(baseURL).origin);
    // Each test is a client of its own, as far as per-address rate limits go (see support/server.ts).
    else await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': randomClientAddress() });
    // Animations would make axe measure half-faded colours; the app honours reduced motion.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    // CSP violations also reach the console, but this names the directive and what was blocked.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
      });
    });
    const documents404 = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'document' && response.status() === 404) {
        documents404.add(response.url().split('#')[0] ?? '');
      }
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // A page whose address names nothing is answered 404 with the app (decision 183), which
      // Chromium logs for the document itself: that is the page's status, not an error of the page.
      const documentNotFound =
        message.text().includes('status of 404') &&
        message.location().url.split('#')[0] === page.url().split('#')[0] &&
        documents404.has(page.url().split('#')[0] ?? '');
      if (!documentNotFound) consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`Uncaught: ${error.message}`));
    waitForAppOnNavigation(page);

    await use(page);

    // Where the page was when the test failed, for the summary of `npm test` (count-reporter.ts): a CI
    // log keeps no trace, and a failed wait says what it waited for, not what the page showed.
    if (testInfo.status !== testInfo.expectedStatus) {
      testInfo.annotations.push({ type: PAGE_AT_FAILURE, description: page.url() });
    }
    if (!allowConsoleErrors) expect(consoleErrors, 'errors logged by the page').toEqual([]);
  },
});

/** Runs axe-core on the page (all rules) and fails on serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  // Serious and critical ones, and headings that skip a level (moderate in axe, but Lighthouse counts
  // it against a page's accessibility score and screen-reader users navigate by headings).
  const serious = violations
    .filter(
      (violation) =>
        violation.impact === 'serious' || violation.impact === 'critical' || violation.id === 'heading-order',
    )
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
    }));
  expect(serious, 'serious or critical accessibility violations').toEqual([]);
}

/** The region Radix Toast renders toasts into. */
export function toastRegion(page: Page) {
  return page.getByRole('region', { name: /^Notifications/ });
}

/** The toast (a list item in that region) that contains the text. */
export function toastWith(page: Page, text: string) {
  return toastRegion(page).getByRole('listitem').filter({ hasText: text });
}
