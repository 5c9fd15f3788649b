import { randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  openSignedIn,
  randomClientAddress,
  type ServerInfo,
  uniqueEmail,
} from './support/api.ts';

/**
 * Product §booking (page, rules, toasts, slots and categories) — as a visitor and as a member, checked
 * against the row the database stored.
 */

const CATEGORIES = [
  'Flower',
  'Concentrates',
  'Edibles',
  'Vape Cartridges',
  'Topicals',
  'Accessories',
  'Seeds',
  'Other',
];

test.use({ timezoneId: 'UTC' });

const MONTHS = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });
function ordinal(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
}
/** A day button of the calendar, by react-day-picker's label ("Friday, November 27th, 2026", maybe "Today, …"). */
function dayButton(page: Page, date: Date) {
  const label = `${MONTHS.format(date)} ${ordinal(date.getUTCDate())}, ${date.getUTCFullYear()}`;
  return page.getByRole('button', { name: new RegExp(`\\b${label}`) });
}
const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const field = (page: Page, name: string | RegExp) => page.getByRole('textbox', { name });

async function fillValid(page: Page, email: string): Promise<void> {
  await field(page, /^Full Name/).fill('Jamie Rivera');
  await field(page, /^Email/).fill(email);
  await field(page, /^Phone/).fill('+1 (555) 123-4567');
  await field(page, /^Company Name/).fill('Sunset Farms');
  await field(page, /^Product Name/).fill('Sunset Sherbet 3.5g');
  await page.getByRole('combobox', { name: /^Product Category/ }).selectOption('Vape Cartridges');
  await field(page, /^Product Description/).fill('Small-batch live resin, hand trimmed.');
  await field(page, /^Special Requests/).fill('Mornings preferred; two people attending.');
}

async function bookingRow(server: ServerInfo, email: string) {
  const { data, error } = await adminClient(server).from('bookings').select('*').eq('email', email);
  expect(error).toBeNull();
  return data ?? [];
}

test('a visitor sees every rule, cannot pick a past date, and books anonymously', async ({
  page,
  server,
}) => {
  // Every rule of the form, one after another, then a booking: a long flow (≈45 s on a quiet
  // two-core machine), so it gets three times the usual limit.
  test.slow();
  // A fixed "today" in the middle of next month keeps yesterday in the same calendar page.
  const now = new Date();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 10, 0));
  await page.clock.setFixedTime(today);
  await page.goto(`${server.url}/booking`);

  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible();
  await expect(page.getByText('Schedule a promotional session for your cannabis product.')).toBeVisible();
  for (const section of [
    'Contact Information',
    'Product Information',
    'Schedule',
    'Special Requests or Notes',
  ]) {
    await expect(page.getByRole('group', { name: section })).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);

  const submit = page.getByRole('button', { name: 'Submit Booking Request' });
  await submit.click();
  await expect(page.getByText('Full Name is required.')).toBeVisible();
  await expect(page.getByText('Email is required.')).toBeVisible();
  await expect(page.getByText('Product Name is required.')).toBeVisible();
  await expect(page.getByText('Product Category is required.')).toBeVisible();
  await expect(page.getByText('Please select a date and time.')).toBeVisible();
  // The keyboard is taken to the first field to fix.
  await expect(field(page, /^Full Name/)).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  await field(page, /^Email/).fill('jamie@');
  await field(page, /^Phone/).fill('555-1234');
  await submit.click();
  await expect(field(page, /^Email/)).toHaveAccessibleDescription('Please enter a valid email address.');
  await expect(field(page, /^Phone/)).toHaveAccessibleDescription('Please enter a valid phone number.');

  // Each of the eight categories can be chosen.
  const category = page.getByRole('combobox', { name: /^Product Category/ });
  for (const name of CATEGORIES) {
    await category.selectOption(name);
    await expect(category).toHaveValue(name);
  }

  // Earlier than now is disabled, and so is today (no same-day sessions, issue 21 item 10); tomorrow is not.
  const yesterday = new Date(today.getTime() - 86_400_000);
  await expect(dayButton(page, yesterday)).toBeDisabled();
  await expect(dayButton(page, new Date(today.getTime() - 10 * 86_400_000))).toBeDisabled();
  await expect(dayButton(page, today)).toBeDisabled();
  await expect(dayButton(page, new Date(today.getTime() + 86_400_000))).toBeEnabled();

  // A date alone is not enough.
  const email = uniqueEmail('visitor-booking');
  await fillValid(page, email);
  const day = new Date(today.getTime() + 3 * 86_400_000);
  await dayButton(page, day).click();
  await submit.click();
  await expect(page.getByText('Please select a date and time.')).toBeVisible();
  expect(await bookingRow(server, email)).toEqual([]);

  // By keyboard: the slots are a radio group.
  await page.getByRole('radio', { name: '09:00' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: '09:30' })).toBeChecked();
  await expect(page.getByRole('radio')).toHaveCount(17);
  await page.getByRole('radio', { name: '17:00' }).check();
  await expect(page.getByText('Please select a date and time.')).toBeHidden();

  await submit.click();
  await expect(
    toastWith(page, "Your booking request has been submitted. We'll contact you soon!"),
  ).toContainText('Success!');
  // §booking: date, time and every field cleared.
  await expect(field(page, /^Full Name/)).toHaveValue('');
  await expect(field(page, /^Email/)).toHaveValue('');
  await expect(category).toHaveValue('');
  await expect(page.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(page.getByText('No date selected')).toBeVisible();

  const rows = await bookingRow(server, email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    user_id: null,
    full_name: 'Jamie Rivera',
    email,
    phone: '+1 (555) 123-4567',
    company_name: 'Sunset Farms',
    product_name: 'Sunset Sherbet 3.5g',
    product_category: 'Vape Cartridges',
    product_description: 'Small-batch live resin, hand trimmed.',
    booking_date: isoDate(day),
    booking_time: '17:00',
    special_requests: 'Mornings preferred; two people attending.',
  });
});

test('a member books as themselves; optional fields left empty are stored as null', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/booking');
  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible();
  const email = uniqueEmail('member-booking');
  // The member's name arrives after the form (decision 166): typing before it lands would race it.
  await expect(field(page, /^Full Name/)).toHaveValue(member.fullName);
  await field(page, /^Full Name/).fill('  Morgan Lee ');
  await field(page, /^Email/).fill(email);
  await field(page, /^Product Name/).fill('Midnight Gummies');
  await page.getByRole('combobox', { name: /^Product Category/ }).selectOption('Edibles');

  // A day in next month, so it is in the future whatever today is.
  await page.getByRole('button', { name: /next month/i }).click();
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 10));
  await dayButton(page, day).click();
  await expect(dayButton(page, day)).toHaveAccessibleName(/selected/);
  await page.getByRole('radio', { name: '12:30' }).check();

  await page.getByRole('button', { name: 'Submit Booking Request' }).click();
  await expect(
    toastWith(page, "Your booking request has been submitted. We'll contact you soon!"),
  ).toBeVisible();
  await expect(field(page, /^Product Name/)).toHaveValue('');

  const rows = await bookingRow(server, email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    user_id: member.id,
    full_name: 'Morgan Lee',
    email,
    phone: null,
    company_name: null,
    product_name: 'Midnight Gummies',
    product_category: 'Edibles',
    product_description: null,
    booking_date: isoDate(day),
    booking_time: '12:30',
    special_requests: null,
  });
});

test('a member who types before their name has loaded keeps what they typed', async ({
  page,
  server,
  member,
}) => {
  // Hold the prefill's read of the member's name until they have typed.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.endsWith('/rest/v1/profiles') && url.searchParams.get('select') === 'full_name',
    async (route) => {
      await released;
      await route.continue();
    },
  );
  await openSignedIn(page, server, member, '/booking');
  await field(page, /^Full Name/).fill('Typed Before Load');
  release();
  // The prefill arrived (the email field takes the member's address) and left the typed name alone.
  await expect(field(page, /^Email/)).toHaveValue(member.email);
  await expect(field(page, /^Full Name/)).toHaveValue('Typed Before Load');
});

test.describe('when the request fails', () => {
  // The browser reports the cut-off request in the console; that is the point of the test.
  test.use({ allowConsoleErrors: true });

  test('the destructive Error toast shows and what was entered stays', async ({
    page,
    server,
    consoleErrors,
  }) => {
    await page.route('**/rest/v1/bookings*', (route) => route.abort('failed'));
    await page.goto(`${server.url}/booking`);
    const email = uniqueEmail('failed-booking');
    await fillValid(page, email);
    await page.getByRole('button', { name: /next month/i }).click();
    const now = new Date();
    await dayButton(page, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 12))).click();
    await page.getByRole('radio', { name: '10:00' }).check();
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    await expect(toastWith(page, 'Network error. Please check your connection and try again.')).toContainText(
      'Error',
    );
    await expect(field(page, /^Email/)).toHaveValue(email);
    await expect(page.getByRole('button', { name: 'Submit Booking Request' })).toBeEnabled();
    expect(consoleErrors.join('\n')).toContain('ERR_FAILED');
  });
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('the form and its messages pass axe', async ({ page, server }) => {
    await page.goto(`${server.url}/booking`);
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    await expect(page.getByText('Please select a date and time.')).toBeVisible();
    await page.getByRole('radio', { name: '11:00' }).check();
    await expectNoSeriousA11yViolations(page);
  });
});

test('a slot an admin confirmed is shown as taken, and the server refuses it and same-day dates (issue 21 item 10)', async ({
  page,
  server,
}) => {
  test.slow();
  // A day three months ahead and a slot of its own, so no other test's bookings meet it.
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, randomInt(1, 29)));
  const slots = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30'];
  const slot = slots[randomInt(slots.length)] as string;
  const service = adminClient(server);
  const email = uniqueEmail('taken-slot');
  const seeded = await service
    .from('bookings')
    .insert({
      full_name: 'Confirmed Brand',
      email,
      product_name: 'Confirmed Gummies',
      product_category: 'Edibles',
      booking_date: isoDate(day),
      booking_time: slot,
      status: 'confirmed',
    })
    .select('id')
    .single();
  expect(seeded.error).toBeNull();
  try {
    await page.goto('/booking');
    await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible({
      timeout: 30_000,
    });
    for (let i = 0; i < 3; i += 1) await page.getByRole('button', { name: /next month/i }).click();
    await dayButton(page, day).click();
    await expect(page.getByRole('radio', { name: `${slot}, taken` })).toBeDisabled();
    await expect(page.getByRole('radio', { name: '17:00', exact: true })).toBeEnabled();

    // The server keeps the same rules whatever a client sends.
    const anon = createClient(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { headers: { 'x-forwarded-for': randomClientAddress() } },
      realtime: { transport: WebSocket as never },
    });
    const row = {
      full_name: 'Late Brand',
      email: uniqueEmail('late-brand'),
      product_name: 'Late Gummies',
      product_category: 'Edibles',
    };
    const taken = await anon
      .from('bookings')
      .insert({ ...row, booking_date: isoDate(day), booking_time: slot });
    expect(taken.error?.message).toBe('This time is already booked. Please choose another time.');
    // Today where the day starts last (UTC-12) is still today somewhere: no same-day sessions.
    const sameDay = new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
    const today = await anon
      .from('bookings')
      .insert({ ...row, booking_date: sameDay, booking_time: '17:00' });
    expect(today.error?.message).toBe(
      'Promo sessions are booked at least one day ahead. Please choose a later date.',
    );
    expect((await service.from('bookings').select('id').eq('email', row.email)).data).toEqual([]);
  } finally {
    await service.from('bookings').delete().eq('email', email);
  }
});

test('the booking page has its headings in order and the user menu stays in a landmark (axe, issue 21 item 11)', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/booking');
  test.slow();
  await expect(page.getByRole('heading', { level: 1, name: 'Book Your Promo Session' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { level: 2, name: 'Contact Information' })).toBeVisible();
  const headings = await new AxeBuilder({ page }).withRules(['heading-order', 'region']).analyze();
  expect(headings.violations.map((violation) => violation.id)).toEqual([]);

  await page
    .getByRole('banner')
    .getByRole('button', { name: member.email.split('@')[0], exact: true })
    .click();
  await expect(page.getByRole('menu')).toBeVisible();
  const menu = await new AxeBuilder({ page }).withRules(['region']).analyze();
  expect(
    menu.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
});
