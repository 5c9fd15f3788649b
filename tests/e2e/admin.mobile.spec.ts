import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, openSignedIn } from './support/api.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Issue 15 on a phone: the dashboard's navigation scrolls above the content and every section works. */
test('an admin uses the dashboard on a phone', async ({ page, server, member }) => {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  await openSignedIn(page, server, member, '/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Live counts' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const nav = page.getByRole('navigation', { name: 'Admin sections' });
  await nav.getByRole('link', { name: 'Bookings' }).click();
  await expect(page.getByRole('heading', { name: 'Bookings', level: 2, exact: true })).toBeVisible();
  await expect(page.getByLabel('Status')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await nav.getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit and security' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
