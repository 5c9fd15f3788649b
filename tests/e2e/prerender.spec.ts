import type { Page } from '@playwright/test';
import { AGE_COOKIE, expect, expectNoSeriousA11yViolations, ROUTES, test } from './fixtures.ts';
import { createMember, deleteMember, openSignedIn } from './support/api.ts';

/**
 * Decision 157: the public pages are prerendered at build time (web/src/prerender.tsx) and the app
 * hydrates them. The HTML must be the page the app renders (a difference would move things, or leave
 * attributes hydration never corrects), carry nothing of a member, and keep the page's policy.
 */

/** web/src/prerender.tsx PRERENDERED_PATHS. */
const PRERENDERED = [
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
];

function headingOf(path: string): string | RegExp {
  const route = ROUTES.find((candidate) => candidate.path === path);
  if (route) return route.heading;
  if (path === '/pass-or-gas/how-rankings-work') return 'How rankings work';
  if (path === '/how-reports-are-reviewed') return 'How reports are reviewed';
  throw new Error(`no heading known for ${path}`);
}

/**
 * The tree under #root, as comparable text: elements with sorted attributes, text with its spaces
 * collapsed. React's generated ids differ between a server render (`_R_…_`) and a browser-only one
 * (`_r_…_`), and a style attribute reads `outline:none` in HTML but `outline: none;` once set by a
 * script; both are written one way here.
 */
async function serializedRoot(page: Page): Promise<string> {
  return page.evaluate(() => {
    const ids = (value: string) => value.replace(/_[rR]_[0-9a-z]+_/g, '_id_');
    const style = (value: string) => value.replace(/\s+/g, '').replace(/;$/, '');
    const walk = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return (node.textContent ?? '').replace(/\s+/g, ' ');
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      const element = node as Element;
      const attributes = [...element.attributes]
        .map(({ name, value }) => `${name}="${name === 'style' ? style(value) : ids(value)}"`)
        .sort()
        .join(' ');
      const children = [...element.childNodes].map(walk).join('');
      return `<${element.localName} ${attributes}>${children}</${element.localName}>`;
    };
    const root = document.getElementById('root');
    return root ? [...root.childNodes].map(walk).join('').replace(/ {2,}/g, ' ') : '';
  });
}

/** Holds back every answer from the API, so the page stays as the prerender saw it: nothing loaded. */
async function holdTheApi(page: Page): Promise<void> {
  for (const service of ['rest', 'auth', 'functions', 'storage']) {
    await page.route(`**/${service}/v1/**`, () => undefined);
  }
}

/** Once the app has started, its heading is React's, and the browser has been idle once. */
async function settled(page: Page, path: string): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, name: headingOf(path) });
  // The page without prerendered HTML shows its heading once its route's code has loaded and run: more
  // than the 10 s default once in stop 56's CI run (/brand-directory, load average 12 during the browser
  // tier, which passed on its retry). The check is the same; only the wait is longer.
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => heading.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react'))))
    .toBe(true);
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
}

test.describe('the prerendered pages', () => {
  for (const path of PRERENDERED) {
    test(`${path} is served prerendered, with its heading and the deployment's configuration`, async ({
      request,
      appConfig,
      serverSendsCsp,
    }) => {
      test.skip(!serverSendsCsp, 'the server prerenders; a static build serves the empty page');
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<div id="root" data-prerendered="${path}"`);
      expect(html).toContain('<h1');
      expect(html).not.toContain('__HG_'); // every placeholder filled in
      expect(html).toContain(appConfig.supportEmail);
      // No inline script: data blocks (the configuration's JSON, structured data, decision 184) are not run.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")/);
      // The same page with a query string (a tab, a filter) is left to the app.
      const withQuery = await (await request.get(`${path}?tab=signup`)).text();
      expect(withQuery).toContain('<div id="root"></div>');
    });

    test(`${path}: hydrated, the page is what the app renders itself`, async ({ page, browser, baseURL }) => {
      // Hydration does not correct an attribute the HTML got wrong: the hydrated page is compared with
      // the page the app renders without any HTML (a query string gets the empty page).
      await holdTheApi(page);
      await page.goto(path);
      expect(await page.locator('#root').getAttribute('data-prerendered')).toBe(path);
      await settled(page, path);
      const hydrated = await serializedRoot(page);

      const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      await context.addCookies([{ name: AGE_COOKIE, value: '1', url: baseURL as string, sameSite: 'Lax' }]);
      const rendering = await context.newPage();
      await holdTheApi(rendering);
      await rendering.goto(`${path}?rendered-by=app`);
      expect(await rendering.locator('#root').getAttribute('data-prerendered')).toBeNull();
      await settled(rendering, path);
      const rendered = await serializedRoot(rendering);
      await context.close();

      // One tag per line, so a difference shows as the lines that differ. React selects an option by
      // its property; the HTML says it with the attribute, which stays after hydration.
      const lines = (tree: string) => tree.replaceAll('<option selected="" ', '<option ').split(/(?=<)/);
      expect(lines(hydrated)).toEqual(lines(rendered));
    });
  }
});

test('hydration keeps the prerendered elements, moves nothing and logs no error', async ({ page }) => {
  // Twelve pages, each loaded and left to settle, in one test: on a starved 2-core machine that can
  // pass the 60 s test timeout (likely what failed it twice in stop 45's CI run, whose trace is not
  // kept), so it gets the slow-test allowance. The threshold it checks is unchanged.
  test.slow();
  // What the data move when they arrive is each page's own test (home.spec.ts, market.spec.ts…);
  // here the page stays as the prerender saw it, so only the app taking over could move anything.
  await holdTheApi(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number; __moved: string[] };
    w.__shift = 0;
    w.__moved = [];
    new PerformanceObserver((list) => {
      type Shift = { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] };
      for (const entry of list.getEntries() as unknown as Shift[]) {
        if (entry.hadRecentInput) continue;
        w.__shift += entry.value;
        for (const source of entry.sources) {
          w.__moved.push((source.node as Element | null)?.outerHTML?.slice(0, 120) ?? '(gone)');
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // Marks the prerendered heading before any of the app's code runs (module scripts run later).
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const heading = document.querySelector('h1') as (HTMLElement & { __prerendered?: boolean }) | null;
      if (heading) heading.__prerendered = true;
    });
  });
  for (const path of PRERENDERED) {
    await page.goto(path);
    const heading = page.getByRole('heading', { level: 1, name: headingOf(path) });
    await expect(heading).toBeVisible();
    // The app has taken the page over: its heading is the very element the HTML made, now React's.
    expect(
      await heading.evaluate((element) => ({
        prerendered: (element as HTMLElement & { __prerendered?: boolean }).__prerendered === true,
        react: Object.keys(element).some((key) => key.startsWith('__reactFiber')),
      })),
      path,
    ).toEqual({ prerendered: true, react: true });
    await settled(page, path);
    const { shift, moved } = await page.evaluate(() => {
      const w = window as unknown as { __shift: number; __moved: string[] };
      return { shift: w.__shift, moved: w.__moved };
    });
    expect(shift, `${path}: ${moved.join('\n')}`).toBeLessThanOrEqual(0.02);
  }
});

test.describe('in the dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('a prerendered page is dark from its first paint, and its toggle follows once the app runs', async ({
    browser,
    baseURL,
    page,
  }) => {
    const context = await browser.newContext({ baseURL, colorScheme: 'dark', javaScriptEnabled: false });
    const before = await context.newPage();
    await before.goto('/news');
    // theme-init.js is the page's only script that runs before the app; without scripts the page
    // still shows, light.
    await expect(before.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
    await context.close();

    await page.goto('/news');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test('the prerendered sign-in form cannot be sent before the app runs, and can after', async ({
  browser,
  baseURL,
  page,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const before = await context.newPage();
  await before.goto('/auth');
  const form = before.getByRole('tabpanel', { name: 'Sign In' });
  await expect(form.getByRole('button', { name: 'Sign In', exact: true })).toBeDisabled();
  await form.getByLabel('Email').fill('someone@example.com');
  await form.getByLabel('Password', { exact: true }).fill('a secret password');
  await form.getByLabel('Password', { exact: true }).press('Enter');
  // Nothing was sent: the address carries no field.
  expect(before.url()).not.toContain('password');
  await context.close();

  await page.goto('/auth');
  await expect(
    page.getByRole('tabpanel', { name: 'Sign In' }).getByRole('button', { name: 'Sign In', exact: true }),
  ).toBeEnabled();
});

test('a member gets the same HTML as a visitor, and the app then shows the member', async ({
  page,
  request,
  server,
  serverSendsCsp,
}) => {
  test.skip(!serverSendsCsp, 'the server prerenders; a static build serves the empty page');
  const member = await createMember(server);
  try {
    await openSignedIn(page, server, member, '/news');
    // The member's own session is in this browser only; the HTML it was sent is everybody's.
    const html = await (await page.request.get('/news')).text();
    expect(html).not.toContain(member.email);
    expect(html).toContain('>Sign In</button>');
    // A visitor who answered the age gate, as this browser did (without the cookie the page also holds
    // the gate: age-gate.spec.ts).
    const visitor = await (await request.get('/news', { headers: { cookie: `${AGE_COOKIE}=1` } })).text();
    const withoutNonce = (text: string) => text.replace(/"styleNonce":"[^"]*"/, '');
    expect(withoutNonce(html)).toBe(withoutNonce(visitor));
    // Once the app runs, the header is the member's.
    await expect(
      page.getByRole('banner').getByRole('button', { name: member.email.split('@')[0] }),
    ).toBeVisible();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  } finally {
    // The page is closed first: its member's reads still under way would be refused once the account
    // is deleted (401, decision 097), and the page's log is checked after the test.
    await page.close();
    await deleteMember(server, member);
  }
});

test.describe('a first visit', () => {
  test.use({ ageVerified: false });

  test('the age gate is open over a prerendered page from its first paint, and nothing behind it moves', async ({
    page,
    context,
  }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number }[]) w.__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/', '/auth']) {
      await context.clearCookies({ name: AGE_COOKIE });
      await page.goto(path);
      await expect(page.getByRole('alertdialog', { name: 'Are you 21 or older?' })).toBeVisible();
      const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
      expect(shift, path).toBeLessThanOrEqual(0.02);
    }
  });
});
