import { AGE_COOKIE, expect, test } from './fixtures.ts';

test('the terms state the minimum age and 30 days of notice for changes', async ({ page, appConfig }) => {
  await page.goto('/terms-of-service');
  const main = page.getByRole('main');
  await expect(main).toContainText('at least 21 years old, or of the legal age for cannabis where you live');
  await expect(main).toContainText("30 days' notice");
  await expect(main.getByRole('link', { name: appConfig.supportEmail }).first()).toHaveAttribute(
    'href',
    `mailto:${appConfig.supportEmail}`,
  );
});

test('the cookie policy names the age verification cookie and covers analytics', async ({ page }) => {
  await page.goto('/cookie-policy');
  const main = page.getByRole('main');
  await expect(main.getByRole('rowheader', { name: AGE_COOKIE })).toBeVisible();
  // The booking form's draft, kept in the tab while a visitor signs in (decision 242).
  await expect(main.getByRole('row', { name: /highgrade\.draft\.booking/ })).toContainText('Session storage');
  await expect(main).toContainText('Age verification');
  await expect(main.getByRole('heading', { name: /Analytics/ })).toBeVisible();
  // There is no analytics, and the policy says so (decision 193).
  await expect(main).toContainText('runs no analytics and no tracking of any kind');
});

test('the privacy policy says what is kept how long, and how people named in reports use their rights', async ({
  page,
  appConfig,
}) => {
  await page.goto('/privacy-policy');
  const main = page.getByRole('main');
  await expect(main).not.toContainText('Allow analytics');
  await expect(main).toContainText('Security logs are kept 12 months');
  await expect(main).toContainText('salted hash of the IP address');
  await expect(main).toContainText('deleted 30 days after the vote');
  await expect(main).toContainText('14 days before, we tell you by a notification and an email');
  const named = main.getByRole('heading', { name: /People named in scam reports/ });
  await expect(named).toBeVisible();
  await expect(main).toContainText('(access), to have it corrected (rectification), to have it erased');
  await expect(main.getByRole('link', { name: appConfig.supportEmail }).first()).toBeVisible();
});

test('the privacy policy covers the data held, GDPR rights and retention', async ({ page }) => {
  await page.goto('/privacy-policy');
  const main = page.getByRole('main');
  for (const text of ['saved articles', 'Scammer reports', 'bookings', 'Subscriptions', 'Privacy settings']) {
    await expect(main).toContainText(new RegExp(text, 'i'));
  }
  await expect(main.getByRole('heading', { name: /Your rights \(GDPR\)/ })).toBeVisible();
  await expect(main).toContainText('Export your data');
  await expect(main).toContainText('12, 24, 36 or 60 months');
  await expect(main).toContainText('card payment provider');

  // What erasure keeps, and why (issue 33).
  const kept = main.getByRole('region', { name: /What we keep after you delete your account/ });
  await expect(kept).toContainText('pseudonym');
  await expect(kept).toContainText('tax and accounting law');
  await expect(kept).toContainText('docs/personal-data.md');
  await expect(kept.getByRole('link', { name: 'personal data register' })).toHaveAttribute(
    'href',
    '/personal-data',
  );

  // The table of contents links to its sections.
  await main
    .getByRole('navigation', { name: 'Contents' })
    .getByRole('link', { name: 'How long we keep it' })
    .click();
  await expect(page).toHaveURL(/#retention$/);
  await expect(main.getByRole('heading', { name: /How long we keep it/ })).toBeInViewport();
});
