import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

// Failing a page chunk makes the browser log errors; here that is the point.
test.use({ allowConsoleErrors: true });

/** The News page's code-split chunk (Vite names it after web/src/app/routes/news.tsx). */
const NEWS_CHUNK = /\/assets\/news-[\w-]+\.js$/;

async function expectCrashFallback(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await expect(
    main.getByText(
      'We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists.',
    ),
  ).toBeVisible();
  await expect(main.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Reload Page' })).toBeVisible();
}

test('a page whose code fails to load shows the crash fallback, and Try Again recovers', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /The trusted hub/ })).toBeVisible();

  await page.route(NEWS_CHUNK, (route) => route.abort('connectionrefused'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'News' }).click();
  await expectCrashFallback(page);
  // The rest of the site keeps working around the failed page.
  await expect(page.getByRole('banner')).toBeVisible();

  // Still failing: Try Again shows the fallback again instead of a blank page.
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expectCrashFallback(page);

  await page.unroute(NEWS_CHUNK);
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
});

test('a page that throws while loading shows the crash fallback, and Reload Page recovers', async ({
  page,
}) => {
  await page.route(NEWS_CHUNK, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("boom")' }),
  );
  await page.goto('/news');
  await expectCrashFallback(page);

  await page.unroute(NEWS_CHUNK);
  await page.getByRole('button', { name: 'Reload Page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
});

test('leaving a crashed page for another one clears the fallback', async ({ page }) => {
  await page.route(NEWS_CHUNK, (route) => route.abort('failed'));
  await page.goto('/news');
  await expectCrashFallback(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market Index' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Market Index' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
});
