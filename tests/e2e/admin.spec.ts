import type { Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, type Member, openSignedIn, type ServerInfo, sessionOf } from './support/api.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Issue 15: the admin dashboard's guard, shell and home, as a visitor, a member and an admin. */

async function makeAdmin(server: ServerInfo, member: Member): Promise<void> {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
}

async function openAsAdmin(page: Page, server: ServerInfo, member: Member, path = '/admin'): Promise<void> {
  await makeAdmin(server, member);
  await openSignedIn(page, server, member, path);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

test('a visitor is sent to sign in, from the home and from a section', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/admin/bookings');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a member without the role sees an honest "not authorised" page', async ({ page, server, member }) => {
  await openSignedIn(page, server, member, '/admin');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  await expect(page.getByText(`the account ${member.email} is not one of them`)).toBeVisible();
  await expect(page.getByText('The dashboard is not available yet')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
  await expect(page).toHaveTitle('Not authorised · HighGrade');
  await expectNoSeriousA11yViolations(page);
  // The server refuses the dashboard's call whatever the page shows.
  const session = await sessionOf(server, member);
  const asMember = createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { Authorization: `Bearer ${session.access_token}` } },
  });
  const answer = await asMember.rpc('admin_dashboard_counts');
  expect(answer.status).toBe(403);
  expect(answer.error?.message).toBe('Unauthorized');
});

test('an admin gets the dashboard home with live counts and the section navigation', async ({
  page,
  server,
  member,
}) => {
  const service = adminClient(server);
  const booked = await service.from('bookings').insert({
    full_name: 'Dashboard Booker',
    email: 'dashboard-booker@example.com',
    product_name: 'Count me',
    product_category: 'Edibles',
    booking_date: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
    booking_time: '11:30',
  });
  expect(booked.error).toBeNull();
  await openAsAdmin(page, server, member);
  await expect(page).toHaveTitle('Admin Dashboard · HighGrade');
  const counts = page.getByRole('list', { name: 'Live counts' });
  const bookings = counts.getByRole('listitem').filter({ hasText: 'New bookings' });
  // Other workers book and answer bookings at the same time, so the tile must equal the database's
  // count (which holds this booking) read just before and just after it is shown; retried until the
  // others leave a quiet moment.
  const newBookings = async () =>
    (await service.from('bookings').select('id', { count: 'exact', head: true }).eq('status', 'new')).count;
  await expect(async () => {
    const first = await newBookings();
    await page.reload();
    const shown = Number(((await bookings.locator('.tabular-nums').textContent()) ?? '').replaceAll(',', ''));
    expect([shown, await newBookings()]).toEqual([first, first]);
  }).toPass({ timeout: 40_000 });
  await expect(counts.getByRole('listitem').filter({ hasText: 'Members' })).toContainText('new this week');
  await expect(counts.getByRole('listitem').filter({ hasText: 'Security events (24 h)' })).toContainText(
    'high or critical',
  );
  const nav = page.getByRole('navigation', { name: 'Admin sections' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await expectNoSeriousA11yViolations(page);
});

test('an unknown section says so inside the dashboard', async ({ page, server, member }) => {
  await openAsAdmin(page, server, member, '/admin/no-such-section');
  await expect(page.getByRole('heading', { name: 'No such section' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Overview' })
    .click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('list', { name: 'Live counts' })).toBeVisible();
});

test('an admin never sees the trial countdown or a Subscribe prompt', async ({ page, server, member }) => {
  await makeAdmin(server, member);
  await openSignedIn(page, server, member, '/profile?tab=subscription');
  await expect(page.getByText('Admin Access')).toBeVisible();
  await expect(page.getByText('always have full access to the Scammer Network')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe Now' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Free Trial Active' })).toHaveCount(0);
});

test('the audit section shows admin changes and security events, filtered in the URL', async ({
  page,
  server,
  member,
}) => {
  const service = adminClient(server);
  const { data: booked } = await service
    .from('bookings')
    .insert({
      full_name: 'Audit Booker',
      email: 'audit-booker@example.com',
      product_name: 'Audited',
      product_category: 'Seeds',
      booking_date: new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10),
      booking_time: '16:30',
    })
    .select('id')
    .single();
  const marker = `Audit marker ${Date.now()}`;
  const logged = await service.from('security_events').insert([
    {
      type: 'test',
      category: 'audit-e2e',
      action: 'probe',
      description: `${marker} high`,
      risk_level: 'high',
    },
    { type: 'test', category: 'audit-e2e', action: 'probe', description: `${marker} low`, risk_level: 'low' },
  ]);
  expect(logged.error).toBeNull();
  await makeAdmin(server, member);
  const session = await sessionOf(server, member);
  const asAdmin = createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { Authorization: `Bearer ${session.access_token}` } },
  });
  expect(
    (await asAdmin.rpc('admin_update_booking', { booking_id: booked?.id, status: 'declined' })).error,
  ).toBeNull();

  await openSignedIn(page, server, member, '/admin/audit?table=public.bookings&action=UPDATE');
  await expect(page.getByRole('heading', { name: 'Audit and security' })).toBeVisible();
  const changes = page.getByRole('list', { name: 'Recorded changes' });
  const entry = changes
    .getByRole('listitem')
    .filter({ hasText: booked?.id as string })
    .first();
  await expect(entry).toContainText('status: "new" → "declined"');
  await expect(entry).toContainText(member.email);
  // In words (issue 34): the table and action, what the entry is about, and who by name.
  await expect(entry).toContainText('Changed');
  await expect(entry).toContainText('Booking');
  await expect(entry.getByTestId('audit-target')).toHaveText('Audited — Audit Booker');
  await expect(entry.getByTestId('audit-actor')).toHaveText(`${member.fullName} · ${member.email}`);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Security events' }).click();
  await page.getByLabel('Risk level').selectOption('high');
  await expect(page).toHaveURL(/\/admin\/audit\?tab=security&risk=high$/);
  await expect(page.getByRole('table')).toContainText(`${marker} high`);
  await expect(page.getByRole('table')).not.toContainText(`${marker} low`);
  await expectNoSeriousA11yViolations(page);
});
