import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

async function scrollTo(page: Page, top: number) {
  await page.evaluate((y) => window.scrollTo(0, y), top);
  await expect.poll(() => scrollY(page)).toBe(top);
  // The page hears of a scroll in the browser's next frame (its scroll event); no reader goes Back sooner.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

test('a new page starts at the top; Back, Forward and a reload return to where the reader was', async ({
  page,
}) => {
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await scrollTo(page, 900);

  // Clicked where the page is: Playwright's click() may scroll first, which would move what is measured.
  const news = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'News', exact: true });
  await news.dispatchEvent('click');
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(0);
  await scrollTo(page, 300);

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(900);

  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(300);

  // A reload keeps the history entry, and with it the position (the page arrives a moment later).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(300);

  // Following a link to the page already open starts it at the top again.
  await news.dispatchEvent('click');
  await expect.poll(() => scrollY(page)).toBe(0);
});
