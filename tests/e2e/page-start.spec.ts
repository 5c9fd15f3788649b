import { expect, ROUTES, test } from './fixtures.ts';

/**
 * Decision 162: a page's first use of Intl (a formatter, toLocaleString, localeCompare) sets up ICU, one
 * long task of 15–40 ms in Chromium. The public pages show their numbers and dates without it as they
 * load (and the chart library is built to make its formatters on first use), so none of them calls it
 * before the reader does something.
 */
const PAGES = ['/', '/news', '/pass-or-gas', '/market-index', '/brand-directory', '/auth'];

function headingOf(path: string): string | RegExp {
  const route = ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`no heading known for ${path}`);
  return route.heading;
}

/** Counts every call that sets up ICU, from before the page's first script. */
const RECORD_INTL = `
  window.__intlCalls = [];
  const record = (name) => window.__intlCalls.push(name + ' ' + (new Error().stack || '').split('\\n')[3]);
  for (const name of ['NumberFormat', 'DateTimeFormat', 'RelativeTimeFormat', 'PluralRules', 'Collator', 'ListFormat', 'Segmenter', 'DisplayNames']) {
    const original = Intl[name];
    if (!original) continue;
    Intl[name] = new Proxy(original, {
      construct(target, args, newTarget) { record('new Intl.' + name); return Reflect.construct(target, args, newTarget); },
      apply(target, self, args) { record('Intl.' + name); return Reflect.apply(target, self, args); },
    });
  }
  for (const [owner, name] of [[Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'], [String.prototype, 'localeCompare'], [Array.prototype, 'toLocaleString']]) {
    const original = owner[name];
    owner[name] = function (...args) { record(name); return original.apply(this, args); };
  }
`;

for (const path of PAGES) {
  test(`${path} loads, shows its data and goes idle without setting up Intl`, async ({ page }) => {
    await page.addInitScript({ content: RECORD_INTL });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: headingOf(path) })).toBeVisible();
    // The data has arrived and rendered (no loading placeholder left), and the deferred work has run.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
    // The market's chart is drawn too: the flower index (the regulators' data every install ships) draws
    // its chart when the reader comes near it (decision 160).
    if (path === '/market-index') {
      const chart = page
        .getByRole('region', { name: 'HighGrade Flower Price Index', exact: true })
        .getByTestId('index-chart');
      await chart.scrollIntoViewIfNeeded();
      await expect(chart.locator('canvas')).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const calls = await page.evaluate(() => (window as unknown as { __intlCalls: string[] }).__intlCalls);
    expect(calls).toEqual([]);
  });
}

test('the hook above sees Intl when it is used (the test can fail)', async ({ page }) => {
  await page.addInitScript({ content: RECORD_INTL });
  await page.goto('/auth');
  await page.evaluate(() => [
    new Intl.NumberFormat('en-US').format(1),
    (1).toLocaleString(),
    'a'.localeCompare('b'),
  ]);
  const calls = await page.evaluate(() => (window as unknown as { __intlCalls: string[] }).__intlCalls);
  expect(calls.map((call) => call.split(' ')[0])).toEqual(['new', 'toLocaleString', 'localeCompare']);
});
