import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

/** /market-index on a phone (issue 20): the panels fit, ranges work, the chart and table agree. */

test('the market index on a phone', async ({ page }) => {
  test.slow();
  await page.goto('/market-index');
  const flower = page.getByRole('region', { name: 'HighGrade Flower Price Index', exact: true });
  const table = flower.getByTestId('points-table');
  await expect(table).toHaveAttribute('data-range', 'All', { timeout: 30_000 });
  await flower.getByRole('button', { name: '3M', exact: true }).click();
  await expect(table).toHaveAttribute('data-range', '3M');
  await expect
    .poll(async () => {
      const rows = await table.locator('tbody tr').count();
      return (
        rows > 0 && String(rows) === (await flower.getByTestId('index-chart').getAttribute('data-points'))
      );
    })
    .toBe(true);
  // Nothing wider than the screen but the tables' own scrolling areas
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await expectNoSeriousA11yViolations(page);
});
