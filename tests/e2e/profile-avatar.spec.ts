import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';

// These pages make several requests and the tests run axe-core many times: on a loaded 2-core machine a
// page can take well over the default 10 s to show its data, and a test over a minute to finish.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

import { adminClient, type Member, openSignedIn, type ServerInfo } from './support/api.ts';
import { pngBytes } from './support/images.ts';

const fileInput = (page: Page) => page.getByTestId('avatar-file-input');

async function avatarObjects(server: ServerInfo, member: Member): Promise<string[]> {
  const { data, error } = await adminClient(server).storage.from('user-uploads').list(member.id);
  expect(error).toBeNull();
  return (data ?? []).map((object) => object.name);
}

async function avatarUrl(server: ServerInfo, member: Member): Promise<string | null> {
  const { data } = await adminClient(server)
    .from('profiles')
    .select('avatar_url')
    .eq('user_id', member.id)
    .single();
  return (data?.avatar_url as string | null) ?? null;
}

async function pickAndUpload(page: Page, name: string, bytes: Buffer) {
  await fileInput(page).setInputFiles({ name, mimeType: 'image/png', buffer: bytes });
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload Photo' }).click();
}

test('a member uploads, replaces and removes their avatar', async ({ page, server, member }) => {
  await openSignedIn(page, server, member, '/profile');
  await expect(page.getByText('Max file size: 5MB. Supported formats: JPG, PNG, WebP')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Photo' })).toHaveCount(0);

  // Picking shows a preview with Upload Photo and Cancel; Cancel goes back.
  await fileInput(page).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngBytes() });
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Choose Photo' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toHaveCount(0);

  await pickAndUpload(page, 'me.png', pngBytes(16, 16, [46, 139, 87]));
  const summaryAvatar = page.getByRole('img', { name: /^Avatar of @/ }).first();
  await expect(summaryAvatar).toBeVisible();
  // The picture really loads from the public bucket.
  await expect.poll(() => summaryAvatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(16);
  const first = await avatarUrl(server, member);
  expect(first).toMatch(new RegExp(`/storage/v1/object/public/user-uploads/${member.id}/avatar-\\d+\\.png$`));
  await expect(summaryAvatar).toHaveAttribute('src', first as string);
  const firstName = first?.split('/').pop() as string;
  expect(await avatarObjects(server, member)).toEqual([firstName]);
  await expectNoSeriousA11yViolations(page);

  // A new picture replaces the old one, whose file is deleted.
  await pickAndUpload(page, 'me-2.png', pngBytes(24, 24, [200, 30, 30]));
  await expect(summaryAvatar).not.toHaveAttribute('src', first as string);
  const second = await avatarUrl(server, member);
  expect(second).not.toBe(first);
  const secondName = second?.split('/').pop() as string;
  await expect.poll(() => avatarObjects(server, member)).toEqual([secondName]);

  await page.getByRole('button', { name: 'Remove Photo' }).click();
  await expect(page.getByRole('img', { name: /^Initials of @/ }).first()).toBeVisible();
  expect(await avatarUrl(server, member)).toBeNull();
  expect(await avatarObjects(server, member)).toEqual([]);
});

test('a file over 5 MB and a text file renamed .png are refused', async ({ page, server, member }) => {
  await openSignedIn(page, server, member, '/profile');
  await expect(page.getByRole('button', { name: 'Choose Photo' })).toBeVisible();

  const big = Buffer.concat([pngBytes(), Buffer.alloc(6 * 1024 * 1024)]);
  await fileInput(page).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
  await expect(toastWith(page, 'Please select an image smaller than 5MB.')).toContainText('File too large');
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toHaveCount(0);

  await fileInput(page).setInputFiles({
    name: 'notes.png',
    mimeType: 'image/png',
    buffer: Buffer.from('These are my notes, not a picture.\n'),
  });
  await expect(toastWith(page, 'Please select an image file.')).toContainText('Invalid file type');

  await fileInput(page).setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hi'),
  });
  await expect(toastWith(page, 'Please select an image file.')).toContainText('Invalid file type');
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toHaveCount(0);
  expect(await avatarObjects(server, member)).toEqual([]);
});

test.describe('avatar failures', () => {
  test.use({ allowConsoleErrors: true });

  test('a failed upload and a failed removal say so', async ({ page, server, member }) => {
    await openSignedIn(page, server, member, '/profile');
    await expect(page.getByRole('button', { name: 'Choose Photo' })).toBeVisible();

    await page.route('**/storage/v1/object/user-uploads/**', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { statusCode: '500', error: 'Internal', message: 'boom' } })
        : route.fallback(),
    );
    await pickAndUpload(page, 'me.png', pngBytes());
    await expect(toastWith(page, 'Failed to upload profile picture.')).toContainText('Upload failed');
    expect(await avatarUrl(server, member)).toBeNull();
    await page.unroute('**/storage/v1/object/user-uploads/**');

    await page.getByRole('button', { name: 'Upload Photo' }).click();
    await expect(page.getByRole('button', { name: 'Remove Photo' })).toBeVisible();

    await page.route('**/storage/v1/object/user-uploads', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, json: { statusCode: '500', error: 'Internal', message: 'boom' } })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Remove Photo' }).click();
    await expect(toastWith(page, 'Failed to remove profile picture.')).toContainText('Remove failed');
    expect(await avatarUrl(server, member)).not.toBeNull();
  });
});
