import type { Page } from '@playwright/test';
import {
  checkoutCompletedObject,
  newSubscription,
  type StripeFake,
  signedEvent,
  startStripeFake,
} from '#tests/support/stripe-fake.ts';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, createMember, type Member, openSignedIn } from './support/api.ts';
import { type E2eServer, startE2eServer } from './support/server.ts';

/**
 * Issue 22 with a payment account: this file's own server takes card payments through a local fake of
 * Stripe (STRIPE_API_BASE; tests/support/stripe-fake.ts), whose Checkout and portal URLs are plain
 * pages on the fake. Webhooks are delivered by the test, signed with the stripe package's helper.
 * The suite's own server stays in demo mode (profile-subscription.spec.ts).
 */

const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

let fake: StripeFake;
let server: E2eServer;
test.beforeAll(async () => {
  // Starting a server of its own takes long on a loaded machine.
  test.setTimeout(240_000);
  fake = await startStripeFake();
  server = await startE2eServer(fake.env);
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const scammerNetwork = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Scammer Network' });

/** A member whose free trial is over: access can come only from a paid subscription. */
async function memberWithoutAccess(): Promise<Member> {
  const member = await createMember(server);
  const { error } = await adminClient(server)
    .from('profiles')
    .update({ trial_ends_at: new Date(Date.now() - 60_000).toISOString() })
    .eq('user_id', member.id);
  expect(error).toBeNull();
  return member;
}

/** What Stripe sends once the Checkout was paid (the subscription exists at the fake). */
async function completeCheckout(member: Member, sessionId: string) {
  const subscription = newSubscription(member.id, Math.floor(Date.now() / 1000) - 5);
  fake.subscriptions.set(subscription.id, subscription);
  const event = signedEvent(
    'checkout.session.completed',
    checkoutCompletedObject(sessionId, subscription, member.id),
  );
  const response = await fetch(`${server.url}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.body,
  });
  expect(response.status).toBe(200);
  return subscription;
}

function longDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

test('Subscribe Now goes to Stripe Checkout; access starts when Stripe confirms; cancel keeps the paid month', async ({
  page,
}) => {
  const member = await memberWithoutAccess();
  await openSignedIn(page, server, member, '/profile?tab=subscription');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText('Not Subscribed')).toBeVisible();
  await expect(panel.getByText("You pay on Stripe's secure checkout page")).toBeVisible();
  await expect(panel.getByText('Demo mode — no payment is taken')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await panel.getByRole('button', { name: 'Subscribe Now' }).click();
  await expect(page).toHaveURL(new RegExp(`^${fake.url}/pay/cs_test_`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  const sessionId = new URL(page.url()).pathname.split('/').pop() as string;

  // Back from Checkout before the webhook arrived: the tab waits for Stripe, then shows the subscription.
  await page.goto(`${server.url}/profile?tab=subscription&checkout=success&session_id=${sessionId}`);
  await expect(
    page.getByRole('status').filter({ hasText: 'waiting for Stripe to confirm it' }),
  ).toBeVisible();
  const subscription = await completeCheckout(member, sessionId);
  await expect(panel.getByText('Active Subscription')).toBeVisible();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Payment received — your Scammer Network subscription is active.' }),
  ).toBeVisible();
  const renews = longDate(subscription.current_period_end);
  await expect(panel.getByText('Renews on')).toBeVisible();
  await expect(panel.getByText(renews)).toBeVisible();
  await expect(panel.getByText('$9.99/month, paid by card')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Cancel: asked first, then Stripe is told to cancel at the period end; access continues until then.
  await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
  await expect(dialog).toContainText(`until ${renews}, and you will not be charged again`);
  await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(toastWith(page, 'Subscription cancelled')).toContainText(`until ${renews}`);
  await expect(panel.getByText(`Cancelled — access until ${renews}`)).toBeVisible();
  expect(fake.subscriptions.get(subscription.id)?.cancel_at_period_end).toBe(true);

  // Manage billing opens Stripe's customer portal.
  await panel.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(new RegExp(`^${fake.url}/portal/bps_`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe customer portal' })).toBeVisible();
});

test('a cancelled Checkout says nothing was charged', async ({ page }) => {
  const member = await memberWithoutAccess();
  await openSignedIn(page, server, member, '/profile?tab=subscription&checkout=cancelled');
  await expect(
    page.getByRole('status').filter({ hasText: 'Checkout cancelled — nothing was charged.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=subscription$/);
  await expect(page.getByRole('tabpanel').getByText('Not Subscribed')).toBeVisible();
});

test('the Scammer Network button sends a member without access to Checkout, and a subscriber in', async ({
  page,
}) => {
  const member = await memberWithoutAccess();
  await openSignedIn(page, server, member, '/');
  await scammerNetwork(page).click();
  await expect(page).toHaveURL(new RegExp(`^${fake.url}/pay/cs_test_`));
  const { data } = await adminClient(server)
    .from('scammer_subscriptions')
    .select('status')
    .eq('user_id', member.id)
    .maybeSingle();
  expect(data).toBeNull();

  await completeCheckout(member, 'cs_test_button');
  await page.goto(`${server.url}/`);
  await scammerNetwork(page).click();
  await expect(page).toHaveURL(/\/scammer-database$/);
});

test('the admin dashboard says payments are taken through Stripe', async ({ page }) => {
  const member = await createMember(server);
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  await openSignedIn(page, server, member, '/admin');
  await expect(page.getByTestId('payments-mode')).toContainText('Payments: Stripe.');
});
