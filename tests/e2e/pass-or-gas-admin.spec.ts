import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';
import { pngBytes } from './support/images.ts';

/** Issue 17, step 3: /admin/products and /admin/moderation. */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

async function makeAdmin(server: ServerInfo, member: Member): Promise<void> {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
}

test('an admin creates a product with an image, edits and archives it', async ({ page, server, member }) => {
  await makeAdmin(server, member);
  const tag = randomBytes(3).toString('hex');
  const name = `Admin Product ${tag}`;
  // A brand with no product yet: the form must offer it (the public brand list names only brands with products).
  const brand = await adminClient(server)
    .from('brands')
    .insert({ name: `First Brand ${tag}`, slug: `first-brand-${tag}` })
    .select('id')
    .single();
  expect(brand.error).toBeNull();
  await openSignedIn(page, server, member, '/admin/products');
  await page.getByRole('button', { name: 'New product' }).click(FIRST_LOAD);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Category').selectOption('Edibles');
  await expect(page.getByLabel('Brand').getByRole('option', { name: `First Brand ${tag}` })).toBeAttached(
    FIRST_LOAD,
  );
  await page.getByLabel('Brand').selectOption({ label: `First Brand ${tag}` });
  await page
    .getByLabel(/^Image/)
    .setInputFiles({ name: 'product.png', mimeType: 'image/png', buffer: pngBytes(64, 64) });
  await expect(page.getByTestId('product-image-preview')).toBeVisible(FIRST_LOAD);
  await page.getByRole('button', { name: 'Create product' }).click();
  const row = page.getByTestId('admin-product').filter({ hasText: name });
  await expect(row).toBeVisible(FIRST_LOAD);
  const { data } = await adminClient(server)
    .from('products')
    .select('id, image_url, category, brand_id')
    .eq('name', name)
    .single();
  expect(data?.category).toBe('Edibles');
  expect(data?.brand_id).toBe(brand.data?.id);
  expect(data?.image_url).toMatch(/\/storage\/v1\/object\/public\/product-images\/products\//);
  const image = await fetch(data?.image_url as string);
  expect(image.status).toBe(200);

  await row.getByRole('button', { name: /^Edit/ }).click();
  await page.getByLabel('Name').fill(`${name} v2`);
  await page.getByRole('button', { name: 'Save product' }).click();
  const renamed = page.getByTestId('admin-product').filter({ hasText: `${name} v2` });
  await expect(renamed).toBeVisible(FIRST_LOAD);
  await expectNoSeriousA11yViolations(page);

  await renamed.getByRole('button', { name: /^Archive/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click();
  await expect(renamed).toContainText('Archived');
  // Any product is found by name, archived ones included (decision 262).
  await page.getByLabel('Find a product').fill(`${name} V2`);
  await expect(page.getByTestId('admin-product')).toHaveCount(1);
  await expect(renamed).toContainText('Archived');
  await page.getByLabel('Find a product').fill(`no such product ${name}`);
  await expect(page.getByRole('heading', { name: 'No products match' })).toBeVisible();
  await page.goto(`/pass-or-gas/${data?.id}`);
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible(FIRST_LOAD);
});

test('an admin hides and restores a reported comment in the moderation queue', async ({
  page,
  server,
  member,
}) => {
  await makeAdmin(server, member);
  const service = adminClient(server);
  const author = await createMember(server, { fullName: 'Quinn Commenter' });
  const reporter = await createMember(server);
  try {
    const productName = `Moderated ${randomBytes(3).toString('hex')}`;
    const { data: product } = await service
      .from('products')
      .insert({ name: productName, category: 'Flower' })
      .select('id')
      .single();
    const content = `Spam ${randomBytes(3).toString('hex')} buy now`;
    const { data: comment } = await service
      .from('product_comments')
      .insert({ user_id: author.id, product_id: product?.id, content })
      .select('id')
      .single();
    const report = await service
      .from('product_comment_reports')
      .insert({ comment_id: comment?.id, reporter_id: reporter.id });
    expect(report.error).toBeNull();

    await openSignedIn(page, server, member, '/admin/moderation');
    const item = page.getByTestId('moderation-item').filter({ hasText: content });
    await expect(item).toContainText('Comment reported 1 time', FIRST_LOAD);
    // Who wrote it, by name (issue 34).
    await expect(item.getByTestId('comment-author')).toHaveText(/^Written by Quinn Commenter \(@.+\)$/);
    await expectNoSeriousA11yViolations(page);
    await item.getByRole('button', { name: 'Hide' }).click();
    await expect(item).toBeHidden(FIRST_LOAD);
    const hidden = await service
      .from('product_comments')
      .select('content, hidden_at')
      .eq('id', comment?.id)
      .single();
    expect(hidden.data?.content).toBe('This comment was hidden by a moderator.');

    await page.getByRole('button', { name: 'Handled' }).click();
    const handled = page.getByTestId('moderation-item').filter({ hasText: productName });
    await handled.getByRole('button', { name: 'Restore' }).click();
    await expect
      .poll(
        async () =>
          (await service.from('product_comments').select('content').eq('id', comment?.id).single()).data
            ?.content,
      )
      .toBe(content);
  } finally {
    await deleteMember(server, author);
    await deleteMember(server, reporter);
  }
});
