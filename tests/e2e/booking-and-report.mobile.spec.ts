import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, openSignedIn, uniqueEmail } from './support/api.ts';

/**
 * The booking page and the report dialog on a phone (product §navigation: the drawer carries Submit a Tip).
 */

test('a member opens the report dialog from the side drawer', async ({ page, server, member }) => {
  await openSignedIn(page, server, member);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'HighGrade' }).getByRole('button', { name: 'Submit a Tip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit a Scammer Report' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit Report' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a visitor books from a phone', async ({ page, server }) => {
  await page.goto(`${server.url}/booking`);
  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const email = uniqueEmail('mobile-booking');
  await page.getByRole('textbox', { name: /^Full Name/ }).fill('Riley Phone');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('textbox', { name: /^Product Name/ }).fill('Pocket Vape');
  await page.getByRole('combobox', { name: /^Product Category/ }).selectOption('Accessories');
  await page.getByRole('button', { name: /next month/i }).click();
  // The first enabled day of next month.
  await page.getByRole('grid').getByRole('button', { disabled: false }).first().click();
  await page.getByRole('radio', { name: '15:00' }).check();
  await page.getByRole('button', { name: 'Submit Booking Request' }).click();
  await expect(
    toastWith(page, "Your booking request has been submitted. We'll contact you soon!"),
  ).toBeVisible();
  const { data } = await adminClient(server)
    .from('bookings')
    .select('product_category, booking_time, user_id')
    .eq('email', email);
  expect(data).toEqual([{ product_category: 'Accessories', booking_time: '15:00', user_id: null }]);
});
