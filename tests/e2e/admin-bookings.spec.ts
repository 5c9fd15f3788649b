import type { Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  createMember,
  type Member,
  openSignedIn,
  type ServerInfo,
  sessionOf,
  waitForMail,
} from './support/api.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Issue 15 "Bookings": the admins' list and detail, the status flow, and what the booker sees. */

const DAY = 86_400_000;
/** A date of its own per test, so tests sharing the server never meet in a slot. */
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const uniqueDays = () => 30 + Math.floor(Math.random() * 300);

async function makeAdmin(server: ServerInfo, member: Member): Promise<void> {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
}

async function clientOf(server: ServerInfo, member: Member): Promise<SupabaseClient> {
  const session = await sessionOf(server, member);
  return createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { Authorization: `Bearer ${session.access_token}` } },
  });
}

async function book(
  server: ServerInfo,
  fields: { date: string; time: string; product: string; email?: string; category?: string; userId?: string },
): Promise<string> {
  const { data, error } = await adminClient(server)
    .from('bookings')
    .insert({
      full_name: 'Robin Booker',
      email: fields.email ?? 'robin@example.com',
      product_name: fields.product,
      product_category: fields.category ?? 'Flower',
      booking_date: fields.date,
      booking_time: fields.time,
      user_id: fields.userId ?? null,
    })
    .select('id')
    .single();
  expect(error).toBeNull();
  return data?.id as string;
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

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

test('an admin filters the list in the URL, opens a booking, confirms it and keeps a note', async ({
  page,
  server,
  member,
}) => {
  const date = isoDate(uniqueDays());
  await book(server, { date, time: '09:00', product: 'Filter Flower', category: 'Flower' });
  const id = await book(server, { date, time: '09:30', product: 'Filter Edible', category: 'Edibles' });
  await makeAdmin(server, member);
  await openSignedIn(page, server, member, '/admin');
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Bookings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Bookings', level: 2, exact: true })).toBeVisible();

  // Two filters chosen before the list renders again (in one task): both stay in the address, the
  // second applied to the address the first left, not to the one the page last rendered.
  await page.evaluate((day) => {
    const setValue = (element: HTMLInputElement | HTMLSelectElement, value: string, event: string) => {
      const prototype =
        element instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLSelectElement.prototype;
      Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value);
      element.dispatchEvent(new Event(event, { bubbles: true }));
    };
    setValue(document.getElementById('bookings-date') as HTMLInputElement, day, 'input');
    setValue(document.getElementById('bookings-category') as HTMLSelectElement, 'Edibles', 'change');
  }, date);
  await expect(page).toHaveURL(new RegExp(`date=${date}&category=Edibles`));
  await expect(page.getByLabel('Session date')).toHaveValue(date);
  await expect(page.getByLabel('Category')).toHaveValue('Edibles');
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Filter Edible');
  await expectNoSeriousA11yViolations(page);

  // The filters survive a reload (they live in the URL).
  await page.reload();
  await expect(page.getByLabel('Category')).toHaveValue('Edibles');
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);

  await page.getByRole('link', { name: 'Robin Booker' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/bookings/${id}`));
  await expect(page.getByRole('heading', { name: 'Filter Edible — Robin Booker' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Confirmation first: cancelling changes nothing.
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Confirm this booking?' });
  await expect(dialog).toContainText('robin@example.com');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('New', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm booking' }).click();
  await expect(toastWith(page, 'Booking confirmed')).toBeVisible();
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark completed' })).toBeVisible();
  const mail = await waitForMail(server, 'robin@example.com', 'booking_status');
  expect(mail.subject).toBe('Your promo session is confirmed');

  await page.getByLabel('Internal note').fill('Bring the <b>samples</b>');
  await page.getByRole('button', { name: 'Save note' }).click();
  await expect(toastWith(page, 'Note saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Internal note')).toHaveValue('Bring the <b>samples</b>');

  await page.getByRole('link', { name: 'All bookings' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/bookings\\?date=${date}&category=Edibles$`));
});

test.describe('a taken slot', () => {
  // The refused call is logged by the browser as a failed request (409), which is the point here.
  test.use({ allowConsoleErrors: true });

  test('a second confirmation for a taken slot is refused with a clear message', async ({
    page,
    server,
    member,
  }) => {
    const date = isoDate(uniqueDays());
    const first = await book(server, { date, time: '15:00', product: 'First in line' });
    const second = await book(server, { date, time: '15:00', product: 'Second in line' });
    await makeAdmin(server, member);
    const admin = await clientOf(server, member);
    expect(
      (await admin.rpc('admin_update_booking', { booking_id: first, status: 'confirmed' })).error,
    ).toBeNull();

    await openSignedIn(page, server, member, `/admin/bookings/${second}`);
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm booking' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: `Another booking is already confirmed for ${date} at 15:00.` }),
    ).toBeVisible();
    await expect(page.getByText('New', { exact: true })).toBeVisible();
  });
});

test('a member gets the confirmation live, opens it from the bell and sees it in My bookings', async ({
  page,
  server,
  member,
}) => {
  const date = isoDate(uniqueDays());
  await openSignedIn(page, server, member, '/booking');
  // The form is prefilled with the member's name and email.
  await expect(page.getByLabel('Full Name')).toHaveValue(member.fullName);
  await expect(page.getByLabel('Email')).toHaveValue(member.email);
  await expect(page.getByRole('heading', { name: 'My bookings' })).toBeVisible();
  await expect(page.getByText('You have no bookings yet.')).toBeVisible();

  const id = await book(server, {
    date,
    time: '11:00',
    product: 'Live Rosin',
    userId: member.id,
    email: member.email,
  });
  const adminAccount = await createMember(server, { fullName: 'Admin Person' });
  await makeAdmin(server, adminAccount);
  const admin = await clientOf(server, adminAccount);
  // A reload shows the new booking; the confirmation is sent once the page's live channel is up.
  const ready = liveChannelReady(page, member);
  await page.reload();
  await expect(page.getByRole('region', { name: 'My bookings' }).getByText('Live Rosin')).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await ready;

  expect((await admin.rpc('admin_update_booking', { booking_id: id, status: 'confirmed' })).error).toBeNull();
  await expect(toastWith(page, 'Live Rosin')).toContainText('Your promo session is confirmed');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await page.goto('/');
  await bell(page).click();
  await page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('button', { name: /Your promo session is confirmed/ })
    .click();
  await expect(page).toHaveURL(/\/booking#my-bookings$/);
  const mine = page.getByRole('region', { name: 'My bookings' });
  await expect(mine.getByRole('listitem').filter({ hasText: 'Live Rosin' })).toContainText('Confirmed');
  await expectNoSeriousA11yViolations(page);
});

test('a member opening the bookings section is not authorised and the API shows them nothing', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/admin/bookings');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  const client = await clientOf(server, member);
  const { data } = await client.from('admin_bookings').select('*');
  expect(data).toEqual([]);
});
