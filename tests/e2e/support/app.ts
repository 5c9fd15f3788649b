import type { Page } from '@playwright/test';

/**
 * A prerendered page (decision 157) shows its controls before the app has taken it over, and what is
 * clicked or typed before then is lost, as it would be for a person. So after `goto` and `reload` the
 * tests wait until the app has hydrated such a page (`html[data-app-ready]`); other pages render only
 * through the app, and the tests wait for what they look for anyway.
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('#root[data-prerendered]') ||
      document.documentElement.hasAttribute('data-app-ready'),
  );
}
