import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, type ServerInfo, uniqueEmail, waitForMail } from './support/api.ts';

/** The accounts these tests sign up are removed after them (the browser-test server is shared). */
async function deleteAccount(server: ServerInfo, email: string): Promise<void> {
  const { data } = await adminClient(server).auth.admin.listUsers({ perPage: 1000 });
  const user = data.users.find((u) => u.email === email);
  if (user) await adminClient(server).auth.admin.deleteUser(user.id);
}

/**
 * Issue 21, items 1 and 2: after signing up, the form gives way to what to do next — check the email,
 * or enter its code right here — and the code in the confirmation mail works where it is offered.
 */

test('after signing up, the code from the mail confirms the account and signs the member in', async ({
  page,
  server,
}) => {
  const email = uniqueEmail('signup-code');
  try {
    await page.goto('/auth?tab=signup');
    const main = page.getByRole('main');
    await main.getByLabel('Full Name').fill('Casey Code');
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill('code password 1');
    await main.getByRole('button', { name: 'Sign Up' }).click();
    await expect(toastWith(page, 'Check your email to confirm your account.')).toContainText('Success!');

    // In place of the empty form: what to do next, and where the code goes.
    const next = main.getByRole('region', { name: 'Check your email' });
    await expect(next).toContainText(`We sent a confirmation link to ${email}.`);
    await expect(main.getByRole('button', { name: 'Sign Up', exact: true })).toHaveCount(0);
    await expect(next.getByRole('heading', { name: 'Check your email' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    await next.getByLabel('Confirmation code').fill('12');
    await next.getByRole('button', { name: 'Confirm Email' }).click();
    await expect(next.getByText('Enter the 6-digit code from the email.')).toBeVisible();

    const mail = (await waitForMail(server, email, 'signup')) as { text?: string };
    const code = /code: (\d{6})/.exec(mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await next.getByLabel('Confirmation code').fill(`${code?.slice(0, 3)} ${code?.slice(3)}`);
    await next.getByRole('button', { name: 'Confirm Email' }).click();
    await expect(toastWith(page, 'Your email is confirmed. Welcome to HighGrade!')).toBeVisible();
    await expect(page).toHaveURL(`${server.url}/`);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  } finally {
    await deleteAccount(server, email);
  }
});

test.describe('a wrong code', () => {
  // The refused code is an HTTP error in the console; that is the point of the test.
  test.use({ allowConsoleErrors: true });

  test('a wrong code says so, and another address can be used instead', async ({ page, server }) => {
    const email = uniqueEmail('signup-wrong-code');
    try {
      await page.goto('/auth?tab=signup');
      const main = page.getByRole('main');
      await main.getByLabel('Full Name').fill('Wren Wrong');
      await main.getByLabel('Email').fill(email);
      await main.getByLabel('Password', { exact: true }).fill('wrong code password');
      await main.getByRole('button', { name: 'Sign Up' }).click();
      const next = main.getByRole('region', { name: 'Check your email' });
      await expect(next).toBeVisible();
      await next.getByLabel('Confirmation code').fill('000000');
      await next.getByRole('button', { name: 'Confirm Email' }).click();
      await expect(toastWith(page, 'Error')).toBeVisible();
      await expect(page).toHaveURL(/\/auth\?tab=signup$/);
      await next.getByRole('button', { name: 'Sign up with another email' }).click();
      await expect(main.getByLabel('Email')).toBeVisible();
      await expect(main.getByRole('button', { name: 'Sign Up', exact: true })).toBeEnabled();
    } finally {
      await deleteAccount(server, email);
    }
  });
});
