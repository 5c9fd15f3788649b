import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Checks of a page on a phone (issues 32 and 34): it scrolls only vertically, and its controls are
 * inside the screen and large enough to tap.
 */

/** The page scrolls only vertically: no element makes it wider than the phone. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

/**
 * A control a thumb can use: visible, inside the screen's width, at least 24 px high (WCAG 2.5.8; a
 * link inside a sentence is exempt from the size).
 */
export async function expectUsable(control: Locator, { inline = false } = {}): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  await expect(control).toBeVisible();
  await expect(control).toBeEnabled();
  const box = await control.boundingBox();
  const width = control.page().viewportSize()?.width ?? 0;
  expect(box, 'control has a box').not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  if (!inline) expect(box.height).toBeGreaterThanOrEqual(24);
}
