import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  authStorageKey,
  deleteMember,
  eventually,
  openSignedIn,
  type ServerInfo,
  seedSession,
  sessionOf,
  uniqueEmail,
  waitForMail,
} from './support/api.ts';

const banner = (page: Page) => page.getByRole('banner');
const userMenuButton = (page: Page, email: string) =>
  banner(page).getByRole('button', { name: email.split('@')[0], exact: true });

async function storedSession(page: Page, server: ServerInfo): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), authStorageKey(server.url));
}

async function accountIdOf(server: ServerInfo, email: string): Promise<string> {
  return eventually(async () => {
    const { data } = await adminClient(server).auth.admin.listUsers({ page: 1, perPage: 1000 });
    return data.users.find((user) => user.email === email)?.id;
  });
}

async function signOutThroughMenu(page: Page, email: string) {
  await userMenuButton(page, email).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Profile Settings' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Admin Panel' })).toHaveCount(0);
  await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(banner(page).getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(userMenuButton(page, email)).toHaveCount(0);
}

test.describe('sign-up, confirmation, sign-in and sign-out', () => {
  test('on the /auth page, the link opened in another browser', async ({ browser, page, server }) => {
    const email = uniqueEmail('signup-page');
    const password = 'first password 1';
    await page.goto('/auth?tab=signup');
    const main = page.getByRole('main');
    await expect(main.getByRole('tab', { name: 'Sign Up', selected: true })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(main.getByText('Or continue with')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await main.getByLabel('Full Name').fill('Pat Page');
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill(password);
    await main.getByRole('button', { name: 'Sign Up' }).click();
    const toast = toastWith(page, 'Check your email to confirm your account.');
    await expect(toast).toContainText('Success!');
    // No redirect after sign-up.
    await expect(page).toHaveURL(/\/auth\?tab=signup$/);

    // The link opened in another browser (decision 165): it confirms, but has no verifier to sign in with.
    const mail = await waitForMail(server, email, 'signup');
    const elsewhere = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
    await elsewhere.addCookies([{ name: 'hg_age_verified', value: '1', url: server.url }]);
    const other = await elsewhere.newPage();
    await other.goto(mail.action_url as string);
    await expect(other.getByRole('heading', { level: 1, name: 'Success!' })).toBeVisible();
    await expect(other).toHaveURL(/\/email-confirmed$/);
    await expect(other.getByText('Your email has been confirmed successfully.')).toBeVisible();
    await expect(other.getByText('You are not signed in in this browser')).toBeVisible();
    await expect(banner(other).getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await storedSession(other, server)).toBeNull();
    await other.getByRole('button', { name: 'Please return to the main browser and sign in' }).click();
    await expect(other).toHaveURL(/\/auth$/);
    await elsewhere.close();

    // Back in the browser that signed up, the member signs in.
    await page.goto('/auth');
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill(password);
    await main.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(userMenuButton(page, email)).toBeVisible();
    expect(await storedSession(page, server)).not.toBeNull();

    // The profile made at sign-up carries the name given (product §profile-creation).
    const id = await accountIdOf(server, email);
    const { data: profile } = await adminClient(server)
      .from('profiles')
      .select('*')
      .eq('user_id', id)
      .single();
    expect(profile).toMatchObject({
      email,
      full_name: 'Pat Page',
      username: email.split('@')[0]?.replace(/[^a-z0-9_]/g, '_'),
    });

    await signOutThroughMenu(page, email);
    // The page shows the signed-out state at once; the stored session goes when /logout has answered.
    await expect.poll(() => storedSession(page, server)).toBeNull();
    await deleteMember(server, { id });
  });

  test('through the dialog, the link opened in the same browser', async ({ page, server }) => {
    const email = uniqueEmail('signup-dialog');
    const password = 'dialog password 1';
    await page.goto('/news');
    await banner(page).getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog', { name: 'HighGrade' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Sign in to access premium cannabis marketplace')).toBeVisible();
    await expect(dialog.getByRole('tab')).toHaveText(['Sign In', 'Sign Up', 'Reset']);
    await expect(dialog.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await dialog.getByRole('tab', { name: 'Sign Up' }).click();
    await dialog.getByLabel('Full Name').fill('Dee Dialog');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await expect(toastWith(page, 'Check your email to confirm your account.')).toContainText('Success!');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/news$/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // The link opened in the same browser signs the new member in and says so (decision 165).
    const mail = await waitForMail(server, email, 'signup');
    await page.goto(mail.action_url as string);
    await expect(page.getByRole('heading', { level: 1, name: 'Success!' })).toBeVisible();
    await expect(page.getByText('Your email has been confirmed and you are signed in.')).toBeVisible();
    await expect(page).toHaveURL(/\/email-confirmed$/);
    await expect(userMenuButton(page, email)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Continue to HighGrade' }).click();
    await expect(page).toHaveURL(/\/$/);
    await signOutThroughMenu(page, email);

    await page.goto('/market-index');
    await banner(page).getByRole('button', { name: 'Sign In' }).click();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    // Sign-in closes the dialog and goes home (product §auth-screen).
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
    await expect(userMenuButton(page, email)).toBeVisible();

    await signOutThroughMenu(page, email);
    await deleteMember(server, { id: await accountIdOf(server, email) });
  });
});

test('a restored session survives a reload, and the member menu is accessible', async ({
  page,
  server,
  member,
}) => {
  await page.goto('/auth');
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(member.email);
  await main.getByLabel('Password', { exact: true }).fill(member.password);
  await main.getByRole('button', { name: 'Sign In' }).click();
  await expect(userMenuButton(page, member.email)).toBeVisible();

  await page.reload();
  await expect(userMenuButton(page, member.email)).toBeVisible();
  await userMenuButton(page, member.email).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await expect(userMenuButton(page, member.email)).toBeFocused();
  expect(await storedSession(page, server)).toContain(member.email);
});

test('a signed-in member opening /auth is sent home, whichever tab the address names', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/auth');
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(userMenuButton(page, member.email)).toBeVisible();
  await page.goto('/auth?tab=signup');
  await expect(page).toHaveURL(`${server.url}/`);
  // Back does not return to the form: the redirect replaced it in the history.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/auth/);
});

test('a session with an expired access token is refreshed on load', async ({ page, server, member }) => {
  const session = await sessionOf(server, member);
  await seedSession(page, server, { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 });
  await page.goto('/');
  await expect(userMenuButton(page, member.email)).toBeVisible();
  await expect
    .poll(async () => JSON.parse((await storedSession(page, server)) ?? '{}').refresh_token)
    .not.toBe(session.refresh_token);
});
