import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

/**
 * Issue 34 item 7: a visitor who meets a members-only part is shown the way in, not a dead end — Submit a
 * Tip opens the sign-in dialog (as the news heart does), the Scammer Network's visitor page names the
 * free account, its free trial and the price, and the authentication screens say what each tab is for.
 */

test('Submit a Tip opens the sign-in dialog; its Sign Up tab says what signing up gives', async ({
  page,
}) => {
  await page.goto('/news');
  await page.getByRole('banner').getByRole('button', { name: 'Submit a Tip' }).click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  // The dialog says why it opened, on the Sign In tab.
  await expect(dialog).toHaveAccessibleDescription('Please sign in to submit a scammer report.');
  await expect(dialog.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  await dialog.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(dialog).toHaveAccessibleDescription(
    'Create your free account: it starts with a free trial of the Scammer Network.',
  );
  await expect(dialog.getByText('Sign in to access premium cannabis marketplace')).toHaveCount(0);
  await dialog.getByRole('tab', { name: 'Reset' }).click();
  await expect(dialog).toHaveAccessibleDescription(
    'Forgot your password? We email you a way to set a new one.',
  );
  await expectNoSeriousA11yViolations(page);
  await expect(page).toHaveURL(/\/news$/);
  // Opened by the Sign In button, it says the product's own subtitle.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog).toHaveAccessibleDescription('Sign in to access premium cannabis marketplace');
});

test("the Scammer Network's visitor page names sign-up, the free trial and the price", async ({ page }) => {
  await page.goto('/scammer-database');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Sign in to search the Scammer Network' })).toBeVisible();
  await expect(main).toContainText('$9.99/month');
  await expect(main).toContainText('free trial');
  await expect(main.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await main.getByRole('link', { name: 'Create a free account' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  await expect(page.getByRole('tab', { name: 'Sign Up', selected: true })).toBeVisible();
  await expect(
    page.getByText('Create your free account: it starts with a free trial of the Scammer Network.'),
  ).toBeVisible();
});
