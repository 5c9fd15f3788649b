import { expect, expectNoSeriousA11yViolations, ROUTES, test, toastRegion } from './fixtures.ts';
import { openSignedIn } from './support/api.ts';

test('the side drawer carries every navigation item and closes with Escape', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await menuButton.click();
  const drawer = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(drawer).toBeVisible();
  const nav = drawer.getByRole('navigation', { name: 'Mobile' });
  for (const name of ['News', 'Market Index', 'Pass or Gas', 'Brand Directory']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  for (const name of ['Scammer Network', 'Submit a Tip', 'Sign In', 'Close menu']) {
    await expect(drawer.getByRole('button', { name })).toBeVisible();
  }
  await expect(drawer.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();
});

test('the drawer works from the keyboard and its links navigate', async ({ page }) => {
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(drawer).toBeVisible();

  // Focus is trapped in the drawer.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await drawer.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  await drawer.getByRole('link', { name: 'Pass or Gas' }).focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/pass-or-gas$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pass or Gas' })).toBeVisible();
  await expect(page.getByRole('main')).toBeFocused();

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Close menu' }).click();
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();
});

test('signed out, the drawer buttons give the sign-in prompts', async ({ page }) => {
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  const drawer = page.getByRole('dialog', { name: 'HighGrade' });

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Scammer Network' }).click();
  await expect(drawer).toBeHidden();
  await expect(toastRegion(page)).toContainText('Please sign in to access the Scammer Network.');

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Submit a Tip' }).click();
  // The sign-in dialog says why (issue 34); closed again to go on.
  const signIn = page.getByRole('dialog', { name: 'HighGrade' }).filter({ has: page.getByRole('tab') });
  await expect(signIn).toHaveAccessibleDescription('Please sign in to submit a scammer report.');
  await page.keyboard.press('Escape');
  await expect(signIn).toBeHidden();

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Sign In' }).click();
  // The drawer gives way to the authentication dialog (both carry the product's name).
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(drawer.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('signed in, the drawer names the member and carries the account items', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/news');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  const drawer = page.getByRole('dialog', { name: 'HighGrade' });
  await menuButton.click();
  await expect(drawer.getByText(`Signed in as ${member.email}`)).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Profile Settings' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await drawer.getByRole('button', { name: 'Sign Out' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
  await menuButton.click();
  await expect(drawer.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(drawer.getByText('Signed in as')).toHaveCount(0);
});

test('signed in with a phone through the dialog', async ({ page, member }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'HighGrade' }).getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await dialog.getByLabel('Email').fill(member.email);
  await dialog.getByLabel('Password', { exact: true }).fill(member.password);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(
    page.getByRole('dialog', { name: 'HighGrade' }).getByText(`Signed in as ${member.email}`),
  ).toBeVisible();
});

for (const { path, heading } of ROUTES) {
  test(`${path} renders on a phone without errors and passes axe`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
  });
}
