import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';
import { pngBytes } from './support/images.ts';

/** Decision 151 in the browser: a brand's several licences (admin) and its uploaded logo (representative). */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

const tag = () => randomBytes(5).toString('hex');
const seeded: { brands: string[]; members: Member[] } = { brands: [], members: [] };

async function addBrand(
  server: ServerInfo,
  row: Record<string, unknown>,
): Promise<{ id: string; slug: string }> {
  const { data, error } = await adminClient(server).from('brands').insert(row).select('id, slug').single();
  expect(error).toBeNull();
  seeded.brands.push((data as { id: string }).id);
  return data as { id: string; slug: string };
}

async function member(server: ServerInfo, admin = false): Promise<Member> {
  const created = await createMember(server);
  seeded.members.push(created);
  if (admin) {
    const { error } = await adminClient(server)
      .from('user_roles')
      .insert({ user_id: created.id, role: 'admin' });
    expect(error).toBeNull();
  }
  return created;
}

test.afterAll(async ({ server }) => {
  const service = adminClient(server);
  for (const id of seeded.brands) {
    const files = await service.storage.from('brand-logos').list(id);
    if (files.data?.length)
      await service.storage.from('brand-logos').remove(files.data.map((f) => `${id}/${f.name}`));
  }
  if (seeded.brands.length) await service.from('brands').delete().in('id', seeded.brands);
  for (const m of seeded.members) await deleteMember(server, m);
  seeded.brands = [];
  seeded.members = [];
});

test.describe('licences', () => {
  // The refused writes (markup, a duplicate) are logged by the browser as failed requests (400, 409),
  // which is the point of those steps.
  test.use({ allowConsoleErrors: true });

  test('an admin adds a second licence and verifies it; the trust page shows both', async ({
    page,
    server,
  }) => {
    test.slow();
    const t = tag();
    const brand = await addBrand(server, {
      name: `Two Licences ${t}`,
      slug: `two-licences-${t}`,
      states: ['CA', 'OR'],
      licence_number: `C11-${t}`,
      licence_state: 'CA',
      licence_type: 'Adult-use cultivation',
    });
    const admin = await member(server, true);
    const service = adminClient(server);
    await openSignedIn(page, server, admin, '/admin/brands');
    await page.getByLabel('Find a brand', { exact: true }).fill(`Two Licences ${t}`);
    const row = page.getByTestId('admin-brand').filter({ hasText: `Two Licences ${t}` });
    await row.getByRole('button', { name: `Edit Two Licences ${t}`, exact: true }).click(FIRST_LOAD);

    const panel = page.getByRole('region', { name: `Licences of Two Licences ${t}`, exact: true });
    await expect(panel.getByTestId('admin-licence')).toHaveCount(1);
    await panel.getByRole('button', { name: 'Add a licence', exact: true }).click();
    const add = panel.getByRole('form', { name: 'Add a licence', exact: true });
    // Bad input is refused with the rule's words, and nothing is added.
    await add.getByLabel('Number', { exact: true }).fill('<script>x</script>');
    await add.getByLabel('Issued by', { exact: true }).selectOption('OR');
    await add.getByRole('button', { name: 'Add licence', exact: true }).click();
    // At the field it concerns (decision 180), the form saying that saving again cannot help.
    const number = add.getByLabel('Number', { exact: true });
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toHaveAccessibleDescription(
      'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
    );
    await expect(add.getByRole('alert').filter({ hasText: 'refused the same way' })).toBeVisible();
    await number.fill(`c11-${t}`);
    await add.getByLabel('Issued by', { exact: true }).selectOption('CA');
    await add.getByRole('button', { name: 'Add licence', exact: true }).click();
    await expect(number).toHaveAccessibleDescription(
      'This brand already lists a licence with this number from this state.',
    );
    await add.getByLabel('Number', { exact: true }).fill(`OR-${t}`);
    await add.getByLabel('Issued by', { exact: true }).selectOption('OR');
    await add.getByLabel('Type', { exact: true }).fill('Producer');
    await add.getByRole('button', { name: 'Add licence', exact: true }).click();
    await expect(toastWith(page, 'Licence added')).toBeVisible();
    await expect(panel.getByTestId('admin-licence')).toHaveCount(2);

    const second = panel.getByTestId('admin-licence').filter({ hasText: `OR OR-${t}` });
    await second.getByRole('button', { name: `Edit licence OR OR-${t}`, exact: true }).click();
    const edit = panel.getByRole('form', { name: `Edit licence OR OR-${t}`, exact: true });
    await edit.getByLabel('Status', { exact: true }).selectOption('verified');
    await edit.getByLabel('Checked on', { exact: true }).fill('2026-11-03');
    await edit.getByLabel('Expires on', { exact: true }).fill('2028-06-30');
    await edit
      .getByLabel('Evidence (what was checked, where)', { exact: true })
      .fill('Active on the OLCC search.');
    await edit.getByRole('button', { name: 'Save licence', exact: true }).click();
    await expect(toastWith(page, 'Licence saved')).toBeVisible();
    await expect(second.getByTestId('verification-badge')).toHaveText('Licence verified');
    await expectNoSeriousA11yViolations(page);

    // The admin's brand editor takes a logo file too.
    await page
      .getByLabel('Upload a logo (JPEG, PNG, WebP or GIF, at most 2 MB)', { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(20, 20) });
    await expect(page.getByTestId('logo-preview')).toHaveAttribute(
      'src',
      new RegExp(`/storage/v1/object/public/brand-logos/${brand.id}/logo-\\d+\\.png$`),
    );
    // A second file before saving: only the one saved stays in the brand's folder.
    const original = await page.getByTestId('logo-preview').getAttribute('src');
    await page
      .getByLabel('Upload a logo (JPEG, PNG, WebP or GIF, at most 2 MB)', { exact: true })
      .setInputFiles({ name: 'logo2.png', mimeType: 'image/png', buffer: pngBytes(22, 22) });
    await expect(page.getByTestId('logo-preview')).not.toHaveAttribute('src', original ?? '');
    const first = await page.getByTestId('logo-preview').getAttribute('src');
    await expect
      .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.length ?? -1)
      .toBe(2);
    await page
      .getByLabel('Upload a logo (JPEG, PNG, WebP or GIF, at most 2 MB)', { exact: true })
      .setInputFiles({ name: 'logo3.png', mimeType: 'image/png', buffer: pngBytes(24, 24) });
    await expect(page.getByTestId('logo-preview')).not.toHaveAttribute('src', first ?? '');
    const saved = await page.getByTestId('logo-preview').getAttribute('src');
    await page.getByRole('button', { name: 'Save brand', exact: true }).click();
    await expect(toastWith(page, 'Brand saved')).toBeVisible();
    await expect
      .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.map((f) => f.name))
      .toEqual([saved?.split('/').at(-1)]);

    await page.goto(`/brand-directory/${brand.slug}`);
    const primary = page.getByTestId('brand-licence');
    await expect(primary).toContainText(`C11-${t}`, FIRST_LOAD);
    await expect(primary.getByTestId('verification-text')).toHaveText(
      'This licence has not been verified by HighGrade. Check it with the issuing state before you trade.',
    );
    const others = page.getByTestId('other-licence');
    await expect(others).toHaveCount(1);
    await expect(others).toContainText(`OR-${t}`);
    await expect(others).toContainText('Oregon');
    await expect(others).toContainText('Producer');
    await expect(others).toContainText('June 30, 2028');
    await expect(others.getByTestId('licence-verification-text')).toHaveText(
      'HighGrade checked this licence on November 3, 2026. Evidence: Active on the OLCC search.',
    );
    await expect(page.getByTestId('header-licence')).toHaveText(`Licence CA C11-${t}`);
    await expect(page.locator(`img[src*="/brand-logos/${brand.id}/logo-"]`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Promoted, the verified licence is the one the brand shows wherever it is promoted.
    await page.goto('/admin/brands');
    await page.getByLabel('Find a brand', { exact: true }).fill(`Two Licences ${t}`);
    await row.getByRole('button', { name: `Edit Two Licences ${t}`, exact: true }).click(FIRST_LOAD);
    await panel.getByRole('button', { name: `Make primary licence OR OR-${t}`, exact: true }).click();
    await expect(toastWith(page, 'Primary licence set')).toBeVisible();
    await page.goto(`/brand-directory?q=${encodeURIComponent(`Two Licences ${t}`)}`);
    const card = page.getByTestId('brand-card').filter({ hasText: `Two Licences ${t}` });
    await expect(card).toContainText(`Licence OR OR-${t}`, FIRST_LOAD);
    await expect(card.getByTestId('verification-badge')).toHaveText('Licence verified');
  });
});

test('a representative uploads a logo; the directory card and the trust page show it; bad files change nothing', async ({
  page,
  server,
}) => {
  test.slow();
  const t = tag();
  const brand = await addBrand(server, { name: `Logo Brand ${t}`, slug: `logo-brand-${t}`, states: ['WA'] });
  const rep = await member(server);
  const service = adminClient(server);
  const claim = await service
    .from('brand_claims')
    .insert({ brand_id: brand.id, user_id: rep.id, role_title: 'Owner' })
    .select('id')
    .single();
  expect(claim.error).toBeNull();
  expect(
    (await service.from('brand_claims').update({ status: 'approved' }).eq('id', claim.data?.id)).error,
  ).toBeNull();

  await openSignedIn(page, server, rep, `/brand-directory/${brand.slug}`);
  await page.getByRole('button', { name: 'Edit brand profile', exact: true }).click(FIRST_LOAD);
  const dialog = page.getByRole('dialog', { name: `Edit Logo Brand ${t}`, exact: true });
  const file = dialog.getByLabel('Upload a logo (JPEG, PNG, WebP or GIF, at most 2 MB)', { exact: true });

  await file.setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    'File type not allowed. Only JPEG, PNG, WebP, and GIF files are permitted.',
  );
  await file.setInputFiles({
    name: 'page.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html>hi</html>'),
  });
  await expect(dialog.getByRole('alert')).toHaveText('File content does not match declared type.');
  await file.setInputFiles({
    name: 'big.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([pngBytes(), Buffer.alloc(2 * 1024 * 1024)]),
  });
  await expect(dialog.getByRole('alert')).toHaveText('File size too large. Maximum size is 2MB.');
  await expect(dialog.getByTestId('logo-preview')).toHaveCount(0);

  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(32, 32) });
  const preview = dialog.getByTestId('logo-preview');
  await expect(preview).toHaveAttribute(
    'src',
    new RegExp(`/storage/v1/object/public/brand-logos/${brand.id}/logo-\\d+\\.png$`),
  );
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  const src = await preview.getAttribute('src');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toastWith(page, 'Brand profile saved')).toBeVisible();

  const headerLogo = page.locator(`img[src="${src}"]`);
  await expect(headerLogo).toBeVisible();
  await expect.poll(() => headerLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
  await page.goto(`/brand-directory?q=${encodeURIComponent(`Logo Brand ${t}`)}`);
  const card = page.getByTestId('brand-card').filter({ hasText: `Logo Brand ${t}` });
  await expect(card.locator('img')).toHaveAttribute('src', src ?? '', FIRST_LOAD);
  await expectNoSeriousA11yViolations(page);

  // Files uploaded in a form closed without saving are removed; the saved logo stays.
  await page.goto(`/brand-directory/${brand.slug}`);
  await page.getByRole('button', { name: 'Edit brand profile', exact: true }).click(FIRST_LOAD);
  let shown = src;
  for (const size of [40, 48]) {
    await file.setInputFiles({
      name: `other-${size}.png`,
      mimeType: 'image/png',
      buffer: pngBytes(size, size),
    });
    // Each upload finished (its address shown) before the next, and before the form closes.
    await expect(preview).not.toHaveAttribute('src', shown ?? '');
    shown = await preview.getAttribute('src');
  }
  await expect
    .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.length ?? -1)
    .toBe(3);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.map((f) => f.name))
    .toEqual([src?.split('/').at(-1)]);
  await page.getByRole('button', { name: 'Edit brand profile', exact: true }).click();
  await expect(preview).toHaveAttribute('src', src ?? '');

  // A file still on its way when the form closes is removed once it lands, and not shown next time.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const uploadPath = `**/storage/v1/object/brand-logos/${brand.id}/**`;
  await page.route(uploadPath, async (route) => {
    arrived();
    await held;
    await route.continue();
  });
  const landed = page.waitForResponse(
    (response) => response.url().includes(`/object/brand-logos/${brand.id}/`) && response.ok(),
  );
  await file.setInputFiles({ name: 'late.png', mimeType: 'image/png', buffer: pngBytes(56, 56) });
  await sent;
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  release();
  await landed;
  await page.unroute(uploadPath);
  await expect
    .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.map((f) => f.name))
    .toEqual([src?.split('/').at(-1)]);
  await page.getByRole('button', { name: 'Edit brand profile', exact: true }).click();
  await expect(preview).toHaveAttribute('src', src ?? '');

  // Removing asks first; after saving, the brand shows its initial again and the file is gone.
  await dialog.getByRole('button', { name: 'Remove logo', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove the logo?', exact: true })
    .getByRole('button', { name: 'Remove logo', exact: true })
    .click();
  await expect(dialog.getByTestId('logo-preview')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toastWith(page, 'Brand profile saved')).toBeVisible();
  await expect(page.locator(`img[src="${src}"]`)).toHaveCount(0);
  await expect
    .poll(async () => (await service.storage.from('brand-logos').list(brand.id)).data?.length ?? -1)
    .toBe(0);
});
