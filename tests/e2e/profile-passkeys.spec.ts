import { AGE_COOKIE, expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { createMember, deleteMember, type Member, openSignedIn } from './support/api.ts';
import { type E2eServer, startE2eServer } from './support/server.ts';

/**
 * Passkeys on the profile's Settings tab (issue 24, decision 149), with Chromium's virtual WebAuthn
 * authenticator (DevTools protocol) standing in for a fingerprint reader. The server is this file's
 * own, on `localhost`: a relying-party id must be a domain name, and the suite's server is 127.0.0.1.
 */
test.slow();

let server: E2eServer;
let member: Member;
test.beforeAll(async () => {
  server = await startE2eServer({ PASSKEY_ENABLED: 'true' }, { hostname: 'localhost' });
});
test.afterAll(async () => {
  await server?.stop();
});
test.beforeEach(async ({ page }) => {
  member = await createMember(server);
  await page.context().addCookies([{ name: AGE_COOKIE, value: '1', url: server.url, sameSite: 'Lax' }]);
});
test.afterEach(async () => {
  await deleteMember(server, member);
});

test('a member adds a passkey with the device’s authenticator and removes it', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await openSignedIn(page, server, member, '/profile');
  await expect(page.getByRole('heading', { name: 'Passkeys', exact: true })).toBeVisible();
  await expect(page.getByText('No passkeys yet.', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Add a passkey', exact: true }).click();
  await expect(toastWith(page, 'Passkey added')).toBeVisible();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText(/^Passkey added /)).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // Usable on a phone: the list and its button fit the screen's width.
  await page.setViewportSize({ width: 375, height: 740 });
  const remove = list.getByRole('button', { name: /^Remove Passkey added / });
  await remove.scrollIntoViewIfNeeded();
  const box = await remove.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await remove.click();
  await expect(toastWith(page, 'Passkey removed')).toBeVisible();
  await expect(page.getByText('No passkeys yet.', { exact: true })).toBeVisible();
});
