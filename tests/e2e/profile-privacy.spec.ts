import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';

// These pages make several requests and the tests run axe-core many times: on a loaded 2-core machine a
// page can take well over the default 10 s to show its data, and a test over a minute to finish.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

import {
  adminClient,
  authStorageKey,
  type Member,
  openSignedIn,
  type ServerInfo,
  sessionOf,
} from './support/api.ts';

const toggle = (page: Page, name: string) => page.getByRole('switch', { name });
const retention = (page: Page) => page.getByLabel('Delete after');

async function saveArticle(server: ServerInfo, member: Member, title: string) {
  const { error } = await adminClient(server)
    .from('saved_articles')
    .insert({
      user_id: member.id,
      article_title: title,
      article_url: `https://news.example.com/${encodeURIComponent(title)}`,
    });
  expect(error).toBeNull();
}

test('every privacy setting is changed, saved and still changed after a reload', async ({
  page,
  server,
  member,
}) => {
  // Hold the first load back, to see the loading state.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/rest/v1/privacy_settings?*', async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.fallback();
  });
  await openSignedIn(page, server, member, '/profile?tab=privacy');
  await expect(page.getByText('Loading privacy settings...')).toBeVisible();
  release();

  // No row yet: the defaults of product §privacy.
  await expect(page.getByRole('radio', { name: 'Public' })).toBeChecked();
  await expect(page.getByText('Anyone can see your profile')).toBeVisible();
  await expect(page.getByText('Only you can see your profile')).toBeVisible();
  await expect(page.getByText('Only your connections can see your profile')).toBeVisible();
  for (const heading of [
    'Profile Visibility',
    'Data Processing',
    'Account Retention',
    'Data Rights (GDPR)',
  ]) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(toggle(page, 'Show email address')).not.toBeChecked();
  // Privacy by default (decision 193): every optional sharing setting off, and no analytics to offer.
  await expect(toggle(page, 'Show activity')).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Allow analytics' })).toHaveCount(0);
  await expect(toggle(page, 'Allow marketing')).not.toBeChecked();
  await expect(toggle(page, 'Data processing consent')).not.toBeChecked();
  await expect(toggle(page, 'Delete my account when inactive')).not.toBeChecked();
  await expect(retention(page)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('radio', { name: 'Friends' }).click();
  for (const name of [
    'Show email address',
    'Show activity',
    'Allow marketing',
    'Data processing consent',
    'Delete my account when inactive',
  ]) {
    await toggle(page, name).click();
  }
  await expect(retention(page)).toHaveValue('24');
  await expect(retention(page).locator('option')).toHaveText([
    '12 months',
    '24 months',
    '36 months',
    '60 months',
  ]);
  await retention(page).selectOption('60');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toastWith(page, 'Your privacy preferences have been saved successfully.')).toContainText(
    'Privacy Settings Updated',
  );

  const { data } = await adminClient(server)
    .from('privacy_settings')
    .select('*')
    .eq('user_id', member.id)
    .single();
  expect(data).toMatchObject({
    profile_visibility: 'friends',
    show_email: true,
    show_activity: true,
    allow_analytics: false,
    allow_marketing: true,
    data_processing_consent: true,
    auto_delete_inactive: true,
    inactive_period_months: 60,
  });

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Friends' })).toBeChecked();
  await expect(toggle(page, 'Show email address')).toBeChecked();
  await expect(toggle(page, 'Show activity')).toBeChecked();
  await expect(toggle(page, 'Allow marketing')).toBeChecked();
  await expect(toggle(page, 'Data processing consent')).toBeChecked();
  await expect(toggle(page, 'Delete my account when inactive')).toBeChecked();
  await expect(retention(page)).toHaveValue('60');

  // Turning auto-delete off hides the period again.
  await toggle(page, 'Delete my account when inactive').click();
  await expect(retention(page)).toHaveCount(0);
});

test('the data export downloads the member’s data as user_data_export_{id}.json', async ({
  page,
  server,
  member,
}) => {
  await saveArticle(server, member, 'Harvest report 2026');
  await openSignedIn(page, server, member, '/profile?tab=privacy');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export My Data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`user_data_export_${member.id}.json`);
  const document = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(document.user_id).toBe(member.id);
  expect(JSON.stringify(document)).toContain('Harvest report 2026');
  expect(JSON.stringify(document)).toContain(member.email);
  await expect(toastWith(page, 'Your data has been exported successfully.')).toContainText(
    'Data Export Complete',
  );
});

test('deleting the account removes it and its rows, and signs the member out', async ({
  page,
  server,
  member,
}) => {
  await saveArticle(server, member, 'Soon gone');
  await openSignedIn(page, server, member, '/profile?tab=privacy');
  await page.getByRole('button', { name: 'Delete My Account' }).click();
  const dialog = page.getByRole('alertdialog');
  for (const text of [
    'Your profile information',
    'Your reviews and comments',
    'Your bookings and submissions',
    'All personal data',
    'This action cannot be undone.',
  ]) {
    await expect(dialog).toContainText(text);
  }
  await expectNoSeriousA11yViolations(page);
  // Cancel keeps everything.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete My Account' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Everything' }).click();
  await expect(
    toastWith(
      page,
      'Your account and all associated data have been permanently deleted. We are sorry to see you go.',
    ),
  ).toContainText('Data Deletion Initiated');
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();

  await expect(sessionOf(server, member)).rejects.toThrow();
  const admin = adminClient(server);
  const user = await admin.auth.admin.getUserById(member.id);
  expect(user.data.user).toBeNull();
  for (const table of ['profiles', 'saved_articles', 'privacy_settings']) {
    const { data, error } = await admin.from(table).select('user_id').eq('user_id', member.id);
    expect(error).toBeNull();
    expect(data).toEqual([]);
  }
});

test.describe('privacy failures', () => {
  test.use({ allowConsoleErrors: true });

  test('load, save, export and deletion failures say so', async ({ page, server, member }) => {
    const fail = (route: import('@playwright/test').Route) =>
      route.fulfill({ status: 500, json: { code: 'XX000', message: 'boom', details: null, hint: null } });
    await page.route('**/rest/v1/privacy_settings?*', (route) =>
      route.request().method() === 'GET' ? fail(route) : route.fallback(),
    );
    await openSignedIn(page, server, member, '/profile?tab=privacy');
    await expect(toastWith(page, 'An error occurred. Please try again.')).toContainText('Error');
    // The defaults stay usable.
    await expect(page.getByRole('radio', { name: 'Public' })).toBeChecked();

    await page.route('**/rest/v1/privacy_settings*', (route) =>
      route.request().method() === 'POST' ? fail(route) : route.fallback(),
    );
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toastWith(page, 'Save Failed')).toBeVisible();

    await page.route('**/functions/v1/gdpr-data-export', fail);
    await page.getByRole('button', { name: 'Export My Data' }).click();
    await expect(toastWith(page, 'Export Failed')).toContainText('Export failed');

    await page.route('**/functions/v1/gdpr-data-deletion', fail);
    await page.getByRole('button', { name: 'Delete My Account' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Everything' }).click();
    await expect(toastWith(page, 'Deletion Failed')).toContainText('Deletion failed');
    await expect(page).toHaveURL(/\/profile\?tab=privacy$/);
    expect((await adminClient(server).auth.admin.getUserById(member.id)).data.user?.id).toBe(member.id);
  });

  test('without a session, export and deletion ask the member to sign in', async ({
    page,
    server,
    member,
  }) => {
    await openSignedIn(page, server, member, '/profile?tab=privacy');
    await expect(page.getByRole('button', { name: 'Export My Data' })).toBeVisible();
    // The session ends behind the page's back (another tab signed out).
    await page.evaluate((key) => window.localStorage.removeItem(key), authStorageKey(server.url));

    await page.getByRole('button', { name: 'Export My Data' }).click();
    await expect(toastWith(page, 'Please sign in to export your data.')).toContainText(
      'Authentication Required',
    );

    await page.getByRole('button', { name: 'Delete My Account' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Everything' }).click();
    await expect(toastWith(page, 'Please sign in to delete your data.')).toContainText(
      'Authentication Required',
    );
    expect((await adminClient(server).auth.admin.getUserById(member.id)).data.user?.id).toBe(member.id);
  });
});
