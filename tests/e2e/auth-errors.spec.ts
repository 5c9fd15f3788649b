import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, authStorageKey, eventually, openSignedIn, uniqueEmail } from './support/api.ts';

async function attemptSignIn(page: Page, email: string, password: string) {
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password', { exact: true }).fill(password);
  await main.getByRole('button', { name: 'Sign In' }).click();
  // The button is busy ("Signing In...") and disabled until the attempt is over.
  await expect(main.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
}

test.describe('failed sign-ins', () => {
  // A refused password grant is an HTTP 400, which the browser reports in the console; expected here.
  test.use({ allowConsoleErrors: true });

  test('a wrong password shows the error toast; the sixth attempt within the hour is refused', async ({
    page,
    server,
    member,
  }) => {
    await page.goto('/auth');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await attemptSignIn(page, member.email, 'not the password');
      const toast = toastWith(page, 'Invalid login credentials');
      await expect(toast).toContainText('Error');
      await toast.getByRole('button', { name: 'Close' }).click();
      await expect(toast).toHaveCount(0);
    }
    // Even the right password waits now: the check runs before the attempt (product §auth-rules, §rpc).
    await attemptSignIn(page, member.email, member.password);
    await expect(
      toastWith(page, 'Too many login attempts. Please wait 1 minutes and try again.'),
    ).toContainText('Error');
    await expect(page).toHaveURL(/\/auth$/);
    // Keyboard users stay in the form after a failed attempt.
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true })).toBeFocused();

    // Each failure was logged with the page's facts (product §security-events, §auth-rules): the browser asks
    // for medium risk, and since a visitor may only log low-risk events, that is kept as their claim
    // (decision 094).
    const events = await eventually(async () => {
      const { data } = await adminClient(server)
        .from('security_events')
        .select('type, category, action, description, risk_level, additional_data')
        .eq('action', 'auth_signin')
        .eq('description', 'Too many login attempts. Please wait 1 minutes and try again.');
      return data && data.length > 0 ? data : undefined;
    });
    expect(events[0]).toMatchObject({ type: 'auth_error', category: 'authentication', risk_level: 'low' });
    expect(events[0]?.additional_data).toMatchObject({
      url: `${server.url}/auth`,
      user_id: null,
      claimed_risk_level: 'medium',
    });
    expect(events[0]?.additional_data.user_agent).toContain('Chrome');
  });
});

test.describe('toasts over the dialog', () => {
  // The refused password grant is an HTTP 400 in the console.
  test.use({ allowConsoleErrors: true });

  test('stay readable while the dialog is open, also after earlier toasts', async ({ page, member }) => {
    await page.goto('/');
    // An earlier toast: the toast region already exists when the (modal) dialog opens.
    await page.getByRole('banner').getByRole('button', { name: 'Scammer Network' }).click();
    const tip = toastWith(page, 'Please sign in to access the Scammer Network.');
    await tip.getByRole('button', { name: 'Close' }).click();
    await expect(tip).toHaveCount(0);

    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog', { name: 'HighGrade' });
    await dialog.getByLabel('Email').fill(member.email);
    await dialog.getByLabel('Password', { exact: true }).fill('wrong password');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(toastWith(page, 'Invalid login credentials')).toContainText('Error');
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test('sign-up checks the name on the server and shows "Invalid name: …"', async ({ page }) => {
  await page.goto('/auth?tab=signup');
  const main = page.getByRole('main');
  await main.getByLabel('Full Name').fill('<b>Bold</b>');
  await main.getByLabel('Email').fill(uniqueEmail('bad-name'));
  await main.getByLabel('Password', { exact: true }).fill('good password');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(toastWith(page, 'Invalid name: Full name must not contain HTML.')).toContainText('Error');
});

test('the forms check their fields before calling the server', async ({ page }) => {
  await page.goto('/auth?tab=signup');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(main.getByText('Email is required.')).toBeVisible();
  await expect(main.getByLabel('Email')).toBeFocused();
  await main.getByLabel('Email').fill('not-an-address');
  await main.getByLabel('Password', { exact: true }).fill('12345');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(main.getByText('Please enter a valid email address.')).toBeVisible();
  await main.getByLabel('Email').fill('fine@example.com');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(main.getByText('Password must be at least 6 characters long.')).toBeVisible();

  await main.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);
  await main.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(main.getByText('Email is required.')).toBeVisible();
});

test.describe('sign-out when the server cannot be reached', () => {
  // The aborted request is logged by the browser.
  test.use({ allowConsoleErrors: true });

  test('still clears the session and goes to /', async ({ page, server, member, consoleErrors }) => {
    await openSignedIn(page, server, member, '/news');
    const menuButton = page
      .getByRole('banner')
      .getByRole('button', { name: member.email.split('@')[0], exact: true });
    await expect(menuButton).toBeVisible();
    await page.route('**/auth/v1/logout**', (route) => route.abort('connectionrefused'));
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect
      .poll(() => page.evaluate((key) => window.localStorage.getItem(key), authStorageKey(server.url)))
      .toBeNull();
    await page.reload();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
    // The browser reports the refused request, and supabase-js logs the failed fetch; nothing else.
    const unexpected = consoleErrors.filter(
      (error) => !error.includes('ERR_CONNECTION_REFUSED') && !error.startsWith('TypeError: Failed to fetch'),
    );
    expect(unexpected).toEqual([]);
  });
});

test('a member without a profile gets one on sign-in (§profile-creation)', async ({
  page,
  server,
  member,
}) => {
  const admin = adminClient(server);
  const removed = await admin.from('profiles').delete().eq('user_id', member.id).select();
  expect(removed.data).toHaveLength(1);
  await openSignedIn(page, server, member);
  const profile = await eventually(async () => {
    const { data } = await admin.from('profiles').select('*').eq('user_id', member.id).maybeSingle();
    return data ?? undefined;
  });
  expect(profile).toMatchObject({
    email: member.email,
    full_name: member.fullName,
    username: member.email
      .split('@')[0]
      ?.toLowerCase()
      .replace(/[^a-z0-9_]/g, '_'),
  });
});

test('admins see the Admin Panel entry', async ({ page, server, member }) => {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  await openSignedIn(page, server, member);
  await page
    .getByRole('banner')
    .getByRole('button', { name: member.email.split('@')[0], exact: true })
    .click();
  await page.getByRole('menuitem', { name: 'Admin Panel' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('the dialog works from the keyboard alone', async ({ page, server, member }) => {
  await page.goto('/');
  const signIn = page.getByRole('banner').getByRole('button', { name: 'Sign In' });
  await signIn.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(dialog).toBeVisible();
  // Arrow keys move between the tabs.
  await dialog.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('tab', { name: 'Sign Up', selected: true })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('tab', { name: 'Sign In', selected: true })).toBeFocused();

  await dialog.getByLabel('Email').focus();
  await page.keyboard.type(member.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(member.password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('banner').getByRole('button', { name: member.email.split('@')[0], exact: true }),
  ).toBeVisible();
  expect(server.url).toBeTruthy();
});

test('Escape closes the dialog and gives the focus back to the Sign In button', async ({ page }) => {
  await page.goto('/');
  const signIn = page.getByRole('banner').getByRole('button', { name: 'Sign In' });
  await signIn.click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await expect(dialog.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(signIn).toBeFocused();
});

/** Holds the matching requests back until released, so a busy state can be seen. */
async function holdRequests(page: Page, pattern: RegExp) {
  const waiting: Array<() => void> = [];
  let held = 0;
  await page.route(pattern, async (route) => {
    held += 1;
    await new Promise<void>((resolve) => waiting.push(resolve));
    await route.continue();
  });
  return {
    /** Resolves once `count` requests in all have been held. */
    held: (count: number) => expect.poll(() => held).toBeGreaterThanOrEqual(count),
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

test('while busy, the submit buttons say so and are disabled', async ({ page, member }) => {
  const gate = await holdRequests(page, /\/auth\/v1\/token/);
  await page.goto('/auth');
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(member.email);
  await main.getByLabel('Password', { exact: true }).fill(member.password);
  await main.getByRole('button', { name: 'Sign In', exact: true }).click();
  await gate.held(1);
  await expect(main.getByRole('button', { name: 'Signing In...' })).toBeDisabled();
  await expect(main.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
  gate.release();
  await expect(page).toHaveURL(/\/$/);
});

test('the reset and sign-up buttons have their busy texts too', async ({ page }) => {
  const gate = await holdRequests(page, /\/auth\/v1\/(signup|recover)/);
  await page.goto('/auth?tab=reset');
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(uniqueEmail('busy-reset'));
  await main.getByRole('button', { name: 'Send Reset Link' }).click();
  await gate.held(1);
  await expect(main.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  gate.release();
  await expect(main.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();

  await main.getByRole('tab', { name: 'Sign Up' }).click();
  await main.getByLabel('Full Name').fill('Busy Bee');
  await main.getByLabel('Email').fill(uniqueEmail('busy-signup'));
  await main.getByLabel('Password', { exact: true }).fill('busy password');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await gate.held(2);
  await expect(main.getByRole('button', { name: 'Creating Account...' })).toBeDisabled();
  gate.release();
  await expect(toastWith(page, 'Check your email to confirm your account.')).toBeVisible();
});

test.describe('a stored session that can no longer be refreshed', () => {
  // The refused refresh is an HTTP 400 in the console.
  test.use({ allowConsoleErrors: true });

  test('is removed, and the page shows the signed-out state', async ({ page, server, member }) => {
    const { data } = await adminClient(server).auth.admin.generateLink({
      type: 'magiclink',
      email: member.email,
    });
    expect(data.user?.id).toBe(member.id);
    await page.addInitScript(
      ([key, value]) => {
        if (window.sessionStorage.getItem('seeded')) return;
        window.sessionStorage.setItem('seeded', '1');
        window.localStorage.setItem(key as string, value as string);
      },
      [
        authStorageKey(server.url),
        JSON.stringify({
          access_token: 'expired.token.value',
          refresh_token: 'revoked-refresh-token',
          token_type: 'bearer',
          expires_in: 3600,
          expires_at: Math.floor(Date.now() / 1000) - 3600,
          user: { id: member.id, email: member.email },
        }),
      ],
    );
    await page.goto('/');
    // The first render trusts storage; the client then fails to refresh and removes it.
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect
      .poll(() => page.evaluate((key) => window.localStorage.getItem(key), authStorageKey(server.url)))
      .toBeNull();
  });
});
