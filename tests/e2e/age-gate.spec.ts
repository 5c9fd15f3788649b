import { AGE_COOKIE, expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

test.use({ ageVerified: false });

test('the age gate appears on a first visit, is keyboard operable, sets the cookie and stays away', async ({
  page,
  context,
}) => {
  await page.goto('/');
  const gate = page.getByRole('alertdialog', { name: 'Are you 21 or older?' });
  await expect(gate).toBeVisible();
  await expect(gate).toHaveAccessibleDescription(/only for adults aged 21 or older/);
  await expectNoSeriousA11yViolations(page);

  // Focus starts on the answer and stays inside the dialog.
  const confirm = gate.getByRole('button', { name: 'I am 21 or older' });
  await expect(confirm).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await gate.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  // Only an answer closes it.
  await page.keyboard.press('Escape');
  await expect(gate).toBeVisible();
  // The page behind is hidden from assistive technology while the gate is open.
  await expect(page.getByRole('banner')).toHaveCount(0);

  await confirm.focus();
  await page.keyboard.press('Enter');
  await expect(gate).toBeHidden();
  await expect(page.getByRole('banner')).toBeVisible();

  const cookie = (await context.cookies()).find((c) => c.name === AGE_COOKIE);
  expect(cookie).toMatchObject({ value: '1', path: '/', sameSite: 'Lax' });
  const oneYear = Date.now() / 1000 + 365 * 24 * 3600;
  expect(Math.abs((cookie?.expires ?? 0) - oneYear)).toBeLessThan(120);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /The trusted hub/ })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.goto('/news');
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('answering "I am under 21" shows a polite refusal and sets no cookie', async ({ page, context }) => {
  await page.goto('/news');
  const gate = page.getByRole('alertdialog');
  await gate.getByRole('button', { name: 'I am under 21' }).click();
  await expect(gate.getByRole('heading', { name: "Sorry, you can't enter yet" })).toBeVisible();
  await expect(gate).toContainText('please come back when you are of age');
  await expect(gate.getByRole('link', { name: 'Leave HighGrade' })).toHaveAttribute('href', /^https:\/\//);
  await expectNoSeriousA11yViolations(page);

  // A mistaken answer can be taken back.
  await gate.getByRole('button', { name: 'Go back' }).click();
  await expect(gate.getByRole('button', { name: 'I am 21 or older' })).toBeVisible();
  expect((await context.cookies()).some((c) => c.name === AGE_COOKIE)).toBe(false);
});

test('the legal pages can be read without passing the gate', async ({ page }) => {
  for (const [path, heading] of [
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
    ['/cookie-policy', 'Cookie Policy'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  }
  // The gate's own links to the terms and the cookie policy lead there, and back again brings it back.
  await page.goto('/');
  const gate = page.getByRole('alertdialog');
  await gate.getByRole('link', { name: 'Cookie Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole('alertdialog')).toBeVisible();
});
