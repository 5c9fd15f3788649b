import { expect, test, toastRegion, toastWith } from './fixtures.ts';

test('the top navigation links to the sections and marks the current one', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, path] of [
    ['News', '/news'],
    ['Market Index', '/market-index'],
    ['Pass or Gas', '/pass-or-gas'],
    ['Brand Directory', '/brand-directory'],
  ]) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  }
  await page.getByRole('link', { name: /HighGrade home/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /The trusted hub/ })).toBeVisible();
});

test('signed out, Scammer Network explains that signing in is needed', async ({ page }) => {
  await page.goto('/news');
  await page.getByRole('banner').getByRole('button', { name: 'Scammer Network' }).click();
  const toast = toastWith(page, 'Please sign in to access the Scammer Network.');
  await expect(toast).toContainText('Authentication Required');
  await expect(page).toHaveURL(/\/news$/);
});

test('signed out, Submit a Tip asks to sign in and opens the sign-in dialog', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('button', { name: 'Submit a Tip' }).click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(dialog).toHaveAccessibleDescription('Please sign in to submit a scammer report.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test("the home page's Scammer Network call to action behaves like the button", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('main').getByRole('button', { name: 'Open the Scammer Network' }).click();
  await expect(toastRegion(page)).toContainText('Please sign in to access the Scammer Network.');
  await page.getByRole('main').getByRole('link', { name: 'Book a promo session' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible();
});

test('signed out, the bell says to sign in to see notifications', async ({ page }) => {
  await page.goto('/');
  const bell = page.getByRole('banner').getByRole('button', { name: 'Notifications' });
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel).toContainText('Sign in to see your notifications.');
  await expect(bell).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell).toBeFocused();
  await expect(bell).toHaveAttribute('aria-expanded', 'false');

  await bell.click();
  await panel.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(panel).toBeHidden();
});

test('the Sign In button opens the authentication screen in a dialog', async ({ page }) => {
  await page.goto('/market-index');
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Sign in to access premium cannabis marketplace')).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();
  await expect(page).toHaveURL(/\/market-index$/);
});

test('the footer has the support contact, a social link and the legal links', async ({ page, appConfig }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: appConfig.supportEmail })).toHaveAttribute(
    'href',
    `mailto:${appConfig.supportEmail}`,
  );
  const instagram = footer.getByRole('link', { name: /Instagram/ });
  await expect(instagram).toHaveAttribute('href', 'https://instagram.com/highgrade');
  await expect(instagram).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(instagram).toHaveAttribute('target', '_blank');
  await expect(footer).toContainText('21+ only.');
  for (const [name, path, heading] of [
    ['Privacy Policy', '/privacy-policy', 'Privacy Policy'],
    ['Terms of Service', '/terms-of-service', 'Terms of Service'],
    ['Cookie Policy', '/cookie-policy', 'Cookie Policy'],
    ['Personal Data', '/personal-data', 'Personal data HighGrade stores'],
  ]) {
    await footer.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});

test('the email-confirmed page opened without a link says nothing was confirmed, and sends the visitor to sign in', async ({
  page,
}) => {
  await page.goto('/email-confirmed');
  await expect(
    page.getByRole('heading', { level: 1, name: 'No confirmation link was opened' }),
  ).toBeVisible();
  await expect(page.getByText('Success!')).toHaveCount(0);
  await expect(page.getByText('Your email has been confirmed successfully.')).toHaveCount(0);
  await expect(page.getByText(/open the link in the email we sent you/)).toBeVisible();
  await page.getByRole('button', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText('Sign in to access premium cannabis marketplace')).toBeVisible();
});

test('the email-confirmed page says when a link failed, and why', async ({ page }) => {
  await page.goto(
    '/email-confirmed#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
  );
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your email could not be confirmed' }),
  ).toBeVisible();
  await expect(page.getByText('Email link is invalid or has expired')).toBeVisible();
  // The error stays out of the address bar and the history.
  await expect(page).toHaveURL(/\/email-confirmed$/);
});

test('the profile page asks a visitor to sign in', async ({ page }) => {
  await page.goto('/profile?tab=saved');
  await expect(page.getByText('Please sign in to view your profile.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('the booking page goes back one step, or home when opened directly', async ({ page }) => {
  await page.goto('/booking');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/$/);

  // From a page of fixed content: /news shows other tests' articles, some with images that cannot load.
  await page.goto('/terms-of-service');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Book a promo session' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible();
  await expect(page.getByText('Schedule a promotional session for your cannabis product.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
});
