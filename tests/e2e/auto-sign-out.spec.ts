import type { Page } from '@playwright/test';
import { expect, test, toastWith } from './fixtures.ts';
import { authStorageKey, createMember, type Member } from './support/api.ts';
import { type E2eServer, startE2eServer } from './support/server.ts';

/** The idle time of this file's own server; the suite's server keeps the product default. */
const IDLE_MS = 8000;

let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTO_SIGN_OUT_MS: String(IDLE_MS) });
});
test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page, member: Member): Promise<void> {
  await page.goto(`${server.url}/auth`);
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(member.email);
  await main.getByLabel('Password', { exact: true }).fill(member.password);
  await main.getByRole('button', { name: 'Sign In' }).click();
  await expect(
    page.getByRole('banner').getByRole('button', { name: member.email.split('@')[0] }),
  ).toBeVisible();
}

test("the suite's server keeps the product default of 2 hours", async ({ server: suiteServer }) => {
  const config = (await (await fetch(`${suiteServer.url}/app-config.json`)).json()) as {
    autoSignOutMs: number;
  };
  expect(config.autoSignOutMs).toBe(7_200_000);
});

test('an idle member is signed out after the configured time', async ({ page }) => {
  const member = await createMember(server);
  await signIn(page, member);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible({
    timeout: IDLE_MS + 10_000,
  });
  await expect(toastWith(page, 'You were signed out after a period of inactivity.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect
    .poll(() => page.evaluate((key) => window.localStorage.getItem(key), authStorageKey(server.url)))
    .toBeNull();
  // The server-side session is gone too: a reload stays signed out.
  await page.reload();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
});

test('activity restarts the timer', async ({ page }) => {
  const member = await createMember(server);
  await signIn(page, member);
  await page.waitForTimeout(IDLE_MS * 0.6);
  await page.mouse.click(5, 400);
  // Past the first deadline, the member is still signed in…
  await page.waitForTimeout(IDLE_MS * 0.6);
  await expect(
    page.getByRole('banner').getByRole('button', { name: member.email.split('@')[0] }),
  ).toBeVisible();
  // …until the time has passed since the last activity.
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible({
    timeout: IDLE_MS + 10_000,
  });
});
