import { expect, test } from './fixtures.ts';

/**
 * On a phone the public pages fit the screen's width: nothing makes the page wider than the screen (a
 * wider page also moves the fixed dialogs, such as the age gate, off centre).
 */
for (const path of ['/', '/news', '/market-index', '/pass-or-gas', '/brand-directory', '/auth']) {
  test(`${path} is no wider than the phone`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: document.documentElement.clientWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
  });
}
