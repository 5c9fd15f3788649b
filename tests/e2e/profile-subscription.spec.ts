import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';

// These pages make several requests and the tests run axe-core many times: on a loaded 2-core machine a
// page can take well over the default 10 s to show its data, and a test over a minute to finish.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

import { adminClient, type Member, openSignedIn, type ServerInfo } from './support/api.ts';

const MINUTE = 60_000;
const scammerNetwork = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Scammer Network' });
const trialCard = (page: Page) => page.getByRole('heading', { name: 'Free Trial Active' });
const countdown = (page: Page) => page.getByTestId('trial-countdown');

async function setTrialEnd(server: ServerInfo, member: Member, endsAt: Date) {
  const { error } = await adminClient(server)
    .from('profiles')
    .update({ trial_ends_at: endsAt.toISOString() })
    .eq('user_id', member.id);
  expect(error).toBeNull();
}

async function subscriptionOf(server: ServerInfo, member: Member) {
  const { data, error } = await adminClient(server)
    .from('scammer_subscriptions')
    .select('subscription_type, status, expires_at')
    .eq('user_id', member.id)
    .maybeSingle();
  expect(error).toBeNull();
  return data as { subscription_type: string; status: string; expires_at: string } | null;
}

/** "0h 2m 51s" → seconds. */
function secondsOf(text: string): number {
  const match = /^(?:Time left:\s*)?(\d+)h (\d+)m (\d+)s$/.exec(text.trim());
  if (!match) throw new Error(`not a countdown: ${text}`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

test('a member subscribes and cancels on the Subscription tab', async ({ page, server, member }) => {
  await openSignedIn(page, server, member, '/profile?tab=subscription');
  const panel = page.getByRole('tabpanel');
  // A new member's trial is running: the tab says so, with its end (issue 34), not "Not Subscribed".
  await expect(panel.getByText(/^Free trial — until /)).toBeVisible();
  await expect(panel.getByText('Not Subscribed')).toHaveCount(0);
  await expect(panel.getByRole('list', { name: 'Benefits' }).getByRole('listitem')).toHaveText([
    'View detailed scammer reports',
    'Submit new scammer reports',
    'Access contact information and evidence',
    'Help protect the cannabis community',
  ]);
  await expect(panel.getByText('$9.99/month')).toBeVisible();
  // A new member is on the trial: the card shows, not yet in warning style.
  await expect(trialCard(page)).toBeVisible();
  await expect(countdown(page)).not.toHaveClass(/bg-destructive/);
  await expectNoSeriousA11yViolations(page);

  // Demo mode (no payment account, the default): said before and after subscribing (issue 22).
  await expect(panel.getByTestId('demo-mode')).toContainText('Demo mode — no payment is taken');
  await panel.getByRole('button', { name: 'Subscribe Now' }).click();
  await expect(toastWith(page, 'Subscription activated')).toContainText(
    /Scammer Network, monthly plan, until [A-Z][a-z]+ \d{1,2}, \d{4}\. Demo mode — no payment is taken: you were not charged \$9\.99\/month\./,
  );
  await expect(panel.getByTestId('demo-mode')).toBeVisible();
  await expect(panel.getByText('Active Subscription')).toBeVisible();
  await expect(panel.getByText('monthly')).toBeVisible();
  const row = await subscriptionOf(server, member);
  expect(row).toMatchObject({ subscription_type: 'monthly', status: 'active' });
  const days = (Date.parse(row?.expires_at ?? '') - Date.now()) / (24 * 60 * MINUTE);
  expect(days).toBeGreaterThan(27);
  expect(days).toBeLessThan(32);
  const expiry = new Date(row?.expires_at ?? '').toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  await expect(panel.getByText(expiry).first()).toBeVisible();
  await expect(panel.getByText('Subscribed since')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Cancelling asks first; keeping it changes nothing.
  await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
  await expect(dialog).toContainText(`You keep full access to the Scammer Network until ${expiry}`);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await subscriptionOf(server, member)).toMatchObject({ status: 'active' });

  await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
  await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(toastWith(page, 'Subscription cancelled')).toContainText(
    `You keep access to the Scammer Network until ${expiry}.`,
  );
  // Access continues until the end of the period (the Terms); the tab says until when.
  await expect(panel.getByText(`Cancelled — access until ${expiry}`)).toBeVisible();
  await expect(panel.getByText('Access until', { exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  expect(await subscriptionOf(server, member)).toMatchObject({
    status: 'cancelled',
    expires_at: row?.expires_at,
  });
  await expectNoSeriousA11yViolations(page);
});

test('a trial ending in 3 minutes counts down every second in warning style, then ends', async ({
  page,
  server,
  member,
}) => {
  await setTrialEnd(server, member, new Date(Date.now() + 3 * MINUTE));
  await page.clock.install();
  await openSignedIn(page, server, member, '/profile');
  await expect(trialCard(page)).toBeVisible();
  await expect(countdown(page)).toHaveText(/^Time left: 0h [0-3]m \d+s$/);
  await expect(countdown(page)).toHaveClass(/bg-destructive/);
  await expectNoSeriousA11yViolations(page);

  await page.clock.pauseAt(new Date(Date.now() + 1000));
  const before = secondsOf((await countdown(page).textContent()) ?? '');
  await page.clock.runFor(1000);
  await expect.poll(async () => secondsOf((await countdown(page).textContent()) ?? '')).toBe(before - 1);
  await page.clock.runFor(1000);
  await expect.poll(async () => secondsOf((await countdown(page).textContent()) ?? '')).toBe(before - 2);

  // Past the end, the status check (every second now) hides the card.
  await page.clock.runFor(3 * MINUTE + 2000);
  await expect(trialCard(page)).toHaveCount(0);
});

test('an expired trial shows no countdown', async ({ page, server, member }) => {
  await setTrialEnd(server, member, new Date(Date.now() - MINUTE));
  // An active subscription, so the page visibly knows the member's access when we look.
  const { error } = await adminClient(server)
    .from('scammer_subscriptions')
    .insert({
      user_id: member.id,
      subscription_type: 'monthly',
      status: 'active',
      expires_at: new Date(Date.now() + 10 * 24 * 60 * MINUTE).toISOString(),
    });
  expect(error).toBeNull();
  await openSignedIn(page, server, member, '/profile?tab=subscription');
  await expect(page.getByRole('tabpanel').getByText('Active Subscription')).toBeVisible();
  await expect(trialCard(page)).toHaveCount(0);
});

test.describe('the Scammer Network button', () => {
  test('asks a visitor to sign in', async ({ page }) => {
    await page.goto('/');
    await scammerNetwork(page).click();
    await expect(toastWith(page, 'Please sign in to access the Scammer Network.')).toContainText(
      'Authentication Required',
    );
    await expect(page).toHaveURL(/\/$/);
  });

  test('takes a member on trial straight to the network', async ({ page, server, member }) => {
    await openSignedIn(page, server, member, '/');
    await expect(scammerNetwork(page)).not.toHaveAttribute('title');
    await scammerNetwork(page).click();
    await expect(page).toHaveURL(/\/scammer-database$/);
    expect(await subscriptionOf(server, member)).toBeNull();
  });

  test('subscribes a member without access, then takes them to the network', async ({
    page,
    server,
    member,
  }) => {
    await setTrialEnd(server, member, new Date(Date.now() - MINUTE));
    await openSignedIn(page, server, member, '/');
    // The lock carries its warning mark (and the button its hint) without access.
    await expect(scammerNetwork(page)).toHaveAttribute('title', /subscribe/);
    await scammerNetwork(page).click();
    // The spec's automatic activation, said as it is: what, until when, and that nothing was charged.
    await expect(toastWith(page, 'Subscription activated')).toContainText(
      /Scammer Network, monthly plan, until .+\. Demo mode — no payment is taken: you were not charged \$9\.99\/month\./,
    );
    await expect(page).toHaveURL(/\/scammer-database$/);
    expect(await subscriptionOf(server, member)).toMatchObject({
      subscription_type: 'monthly',
      status: 'active',
    });
    await expect(scammerNetwork(page)).not.toHaveAttribute('title');
  });
});

test.describe('subscription failures', () => {
  test.use({ allowConsoleErrors: true });

  test('a failed automatic subscription leads to the Subscription tab', async ({ page, server, member }) => {
    await setTrialEnd(server, member, new Date(Date.now() - MINUTE));
    await page.route('**/functions/v1/subscription-activate', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { error: 'internal', message: 'boom' } })
        : route.fallback(),
    );
    await openSignedIn(page, server, member, '/');
    await scammerNetwork(page).click();
    await expect(page).toHaveURL(/\/profile\?tab=subscription$/);
    await expect(toastWith(page, 'Payment processor coming soon.')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel').getByText('Not Subscribed')).toBeVisible();

    // Subscribe Now fails the same way.
    await page.getByRole('button', { name: 'Subscribe Now' }).click();
    await expect(toastWith(page, 'Payment processor coming soon.')).toBeVisible();
    expect(await subscriptionOf(server, member)).toBeNull();
  });

  test('a cancellation that finds nothing to cancel says so', async ({ page, server, member }) => {
    const admin = adminClient(server);
    await admin.from('scammer_subscriptions').insert({
      user_id: member.id,
      status: 'active',
      expires_at: new Date(Date.now() + 10 * 24 * 60 * MINUTE).toISOString(),
    });
    await openSignedIn(page, server, member, '/profile?tab=subscription');
    await expect(page.getByRole('tabpanel').getByText('Active Subscription')).toBeVisible();
    // Removed meanwhile (by an admin).
    await admin.from('scammer_subscriptions').delete().eq('user_id', member.id);
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel Subscription' }).click();
    await expect(toastWith(page, 'Failed to cancel subscription. Please try again.')).toBeVisible();
  });
});

test('the admin dashboard says payments are in demo mode', async ({ page, server, member }) => {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  await openSignedIn(page, server, member, '/admin');
  await expect(page.getByTestId('payments-mode')).toContainText('Payments: Demo mode — no payment is taken.');
  await expectNoSeriousA11yViolations(page);
});
