import type { Page } from '@playwright/test';
import { createUser } from '#tests/support/users.ts';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, type Member, openSignedIn, type ServerInfo } from './support/api.ts';

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const badge = (page: Page) => page.getByTestId('notifications-badge');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

async function notify(server: ServerInfo, member: Member, count: number, label = 'Note'): Promise<void> {
  const start = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: member.id,
    title: `${label} ${i + 1}`,
    message: `Message ${i + 1}`,
    created_at: new Date(start + i * 1000).toISOString(),
  }));
  const { error } = await adminClient(server).from('notifications').insert(rows);
  expect(error).toBeNull();
}

/** Resolves once the page's realtime channel for the member's notifications is subscribed. */
function liveChannelReady(page: Page, member: Member): Promise<void> {
  const topic = `realtime:notifications:${member.id}`;
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const text = String(payload);
        if (text.includes(topic) && text.includes('"system"') && text.includes('"status":"ok"')) resolve();
      });
    });
  });
}

test('a notification inserted for the member arrives live, as a toast and in the bell', async ({
  page,
  server,
  member,
}) => {
  const ready = liveChannelReady(page, member);
  await openSignedIn(page, server, member);
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await ready;

  const { error } = await adminClient(server).from('notifications').insert({
    user_id: member.id,
    title: 'Your report was published',
    message: 'Thanks for keeping the community safe.',
  });
  expect(error).toBeNull();

  const toast = toastWith(page, 'Thanks for keeping the community safe.');
  await expect(toast).toContainText('Your report was published');
  await expect(badge(page)).toHaveText('1');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  // Screen readers hear about it from the bell's live region too.
  await expect(page.getByRole('status').filter({ hasText: 'New notification.' })).toHaveText(
    'New notification. 1 unread.',
  );

  await bell(page).click();
  await expect(panel(page).getByRole('listitem')).toHaveCount(1);
  await expect(panel(page)).toContainText('Your report was published');
  await expectNoSeriousA11yViolations(page);
});

test('the badge shows 99+ past 99 unread, and the bell lists the latest 20', async ({
  page,
  server,
  member,
}) => {
  await notify(server, member, 120);
  await openSignedIn(page, server, member);
  await expect(badge(page)).toHaveText('99+');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 99+ unread');
  await bell(page).click();
  const items = panel(page).getByRole('listitem');
  await expect(items).toHaveCount(20);
  await expect(items.first()).toContainText('Note 120');
  await expect(items.last()).toContainText('Note 101');
});

test('marking one and marking all read persist across reloads', async ({ page, server, member }) => {
  await notify(server, member, 3);
  await openSignedIn(page, server, member);
  await expect(badge(page)).toHaveText('3');
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const second = panel(page).getByRole('button', { name: /Note 2/ });
  await expect(second).toHaveAccessibleDescription(/unread/);
  await second.click();
  await expect(badge(page)).toHaveText('2');
  await expect(second).toHaveAccessibleDescription(/read/);
  await expect(second).not.toHaveAccessibleDescription(/unread/);

  await page.reload();
  await expect(badge(page)).toHaveText('2');
  await bell(page).click();
  await expect(panel(page).getByRole('button', { name: /Note 2/ })).not.toHaveAccessibleDescription(/unread/);
  await expect(panel(page).getByRole('button', { name: /Note 3/ })).toHaveAccessibleDescription(/unread/);

  await panel(page).getByRole('button', { name: 'Mark all read' }).click();
  await expect(badge(page)).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(panel(page).getByRole('button', { name: 'Mark all read' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );

  await page.reload();
  await expect(
    page.getByRole('banner').getByRole('button', { name: member.email.split('@')[0], exact: true }),
  ).toBeVisible();
  await bell(page).click();
  await expect(panel(page).getByRole('listitem')).toHaveCount(3);
  await expect(badge(page)).toHaveCount(0);
  const { data } = await adminClient(server).from('notifications').select('is_read').eq('user_id', member.id);
  expect(data?.every((row) => row.is_read)).toBe(true);
});

test('the bell works from the keyboard', async ({ page, server, member }) => {
  await notify(server, member, 2);
  await openSignedIn(page, server, member);
  await expect(badge(page)).toHaveText('2');
  await bell(page).focus();
  await page.keyboard.press('Enter');
  await expect(panel(page)).toBeVisible();
  const first = panel(page).getByRole('button', { name: /Note 2/ });
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(badge(page)).toHaveText('1');
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(bell(page)).toBeFocused();
});

test('a member sees only their own notifications, even as an admin', async ({ page, server, member }) => {
  const admin = adminClient(server);
  await admin.from('user_roles').insert({ user_id: member.id, role: 'admin' });
  const { id: otherId } = await createUser(server, {
    email: `other-${member.email}`,
    password: 'other password',
  });
  await admin
    .from('notifications')
    .insert({ user_id: otherId, title: 'Not yours', message: 'For someone else' });
  await notify(server, member, 1, 'Mine');
  await openSignedIn(page, server, member);
  await expect(badge(page)).toHaveText('1');
  await bell(page).click();
  await expect(panel(page).getByRole('listitem')).toHaveCount(1);
  await expect(panel(page)).not.toContainText('Not yours');
  await admin.auth.admin.deleteUser(otherId);
});
