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

test("the gate is open from the page's first paint and answers without the app's code", async ({
  browser,
  baseURL,
}) => {
  // A browser of its own, where the app's code never arrives: the gate needs none (decision 161).
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.route('**/assets/*.js', (route) => route.abort());
  // Before every frame the browser paints: was the page there without the gate open over it?
  await page.addInitScript(() => {
    const w = window as unknown as { __framesWithPage: number; __pageBeforeGate: number };
    w.__framesWithPage = 0;
    w.__pageBeforeGate = 0;
    const check = () => {
      if (document.getElementById('root')) {
        w.__framesWithPage += 1;
        if (!(document.getElementById('age-gate') as HTMLDialogElement | null)?.open) w.__pageBeforeGate += 1;
      }
      if (w.__framesWithPage < 30) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.goto('/news', { waitUntil: 'commit' });
  const gate = page.getByRole('alertdialog', { name: 'Are you 21 or older?' });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole('button', { name: 'I am 21 or older' })).toBeFocused();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __framesWithPage: number }).__framesWithPage))
    .toBeGreaterThanOrEqual(30);
  expect(
    await page.evaluate(() => (window as unknown as { __pageBeforeGate: number }).__pageBeforeGate),
  ).toBe(0);
  // The page behind is there, inert and hidden from assistive technology, without the app.
  expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('/news');
  await expect(page.locator('#root')).toHaveAttribute('aria-hidden', 'true');
  await expect(page.getByRole('banner')).toHaveCount(0);

  await gate.getByRole('button', { name: 'I am under 21' }).click();
  const refusal = page.getByRole('alertdialog', { name: "Sorry, you can't enter yet" });
  await expect(refusal).toHaveAccessibleDescription(/please come back when you are of age/);
  await expect(refusal.getByRole('button', { name: 'Go back' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(refusal).toBeVisible();
  await refusal.getByRole('button', { name: 'Go back' }).click();
  await gate.getByRole('button', { name: 'I am 21 or older' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('aria-hidden', 'true');
  expect((await context.cookies()).find((c) => c.name === AGE_COOKIE)?.value).toBe('1');

  // Once answered, the server sends no gate at all: neither its dialog nor its script.
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.reload({ waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.locator('#age-gate')).toHaveCount(0);
  expect(requested).not.toContain('/age-gate.js');
  await context.close();
});

test('a first visit that starts on a legal page meets the gate on the next page', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // Within the app (no page load): the gate opens for the page that needs it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'News' }).click();
  await expect(page).toHaveURL(/\/news$/);
  const gate = page.getByRole('alertdialog', { name: 'Are you 21 or older?' });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole('button', { name: 'I am 21 or older' })).toBeFocused();
  await gate.getByRole('button', { name: 'I am 21 or older' }).click();
  await expect(gate).toBeHidden();
  // Answered: no page brings it back.
  await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Cookie Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});
