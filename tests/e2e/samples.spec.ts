import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, createMember, openSignedIn } from './support/api.ts';
import { type E2eServer, startE2eServer } from './support/server.ts';

/**
 * The sample-retirement rule in the browser (decision 175, issue 34 item 2), on a server of its own
 * started with DEMO_CONTENT=true: a sample product says it takes no votes or comments, a sample
 * brand offers no claim, and each admin page lists exactly the samples its area will remove and when.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
const FIRST_LOAD = { timeout: 30_000 };

test.describe('with sample content (DEMO_CONTENT=true)', () => {
  test.describe.configure({ mode: 'serial' });
  let demo: E2eServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    demo = await startE2eServer({ DEMO_CONTENT: 'true' });
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('members are told samples take no votes, comments or claims', async ({ page }) => {
    test.slow();
    const member = await createMember(demo, { fullName: 'Sam Sampler' });
    const { data: product } = await adminClient(demo)
      .from('products')
      .select('id, name')
      .eq('is_sample', true)
      .order('name')
      .limit(1)
      .single();
    expect(product).not.toBeNull();

    // A member on a sample product: the vote buttons are disabled with the reason; no comment form.
    await openSignedIn(page, demo, member, `/pass-or-gas/${product?.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product?.name, exact: true })).toBeVisible(
      FIRST_LOAD,
    );
    await expect(page.getByRole('button', { name: /^Gas/ })).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Pass/ })).toBeDisabled();
    await expect(
      page.getByText(
        'Sample products cannot be voted on: they are deleted when the first real product is added.',
        { exact: true },
      ),
    ).toBeVisible();
    await expect(page.getByTestId('sample-closed')).toContainText('it cannot be voted on or commented on');
    await expect(page.getByRole('textbox', { name: 'Add a comment' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // A sample brand's page offers no claim.
    await page.goto(`${demo.url}/brand-directory/sample-green-thumb-brand`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Green Thumb Collective (sample)', exact: true }),
    ).toBeVisible(FIRST_LOAD);
    await expect(page.getByTestId('sample-closed')).toContainText(
      'This is a sample brand: it cannot be claimed',
    );
    await expect(page.getByRole('button', { name: /claim/i })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  // After the members' test: it adds the first real product.
  test('admins see what each area will remove and when, before it happens', async ({ page }) => {
    test.slow();
    const admin = await createMember(demo, { fullName: 'Ada Admin' });
    const granted = await adminClient(demo).from('user_roles').insert({ user_id: admin.id, role: 'admin' });
    expect(granted.error).toBeNull();

    // The admin's Products page lists the seven samples that go with the first real product.
    await openSignedIn(page, demo, admin, '/admin/products');
    const notice = page.getByRole('region', { name: 'Sample content' });
    await expect(notice).toContainText(
      'Pass or Gas shows sample content. These 7 sample items are deleted when the first real product is added:',
      FIRST_LOAD,
    );
    await expect(notice.getByRole('listitem')).toHaveCount(7);
    await expect(notice.getByRole('listitem').filter({ hasText: 'Sample Brand (example)' })).toHaveCount(1);
    await expect(notice).toContainText('Members cannot vote on, comment on, claim, report or save samples');
    await expectNoSeriousA11yViolations(page);

    // The Brands page lists the directory's four; they stay when a product is added, and the
    // Products page's notice is gone once a real product exists.
    await page.goto(`${demo.url}/admin/brands`);
    await expect(notice).toContainText(
      'These 4 sample items are deleted when the first real brand is added:',
    );
    const real = await adminClient(demo).from('products').insert({ name: 'Real Kush', category: 'Flower' });
    expect(real.error).toBeNull();
    await page.reload();
    await expect(notice.getByRole('listitem')).toHaveCount(4, FIRST_LOAD);
    await page.goto(`${demo.url}/admin/products`);
    await expect(page.getByRole('button', { name: 'Edit Real Kush', exact: true })).toBeVisible(FIRST_LOAD);
    await expect(notice).toHaveCount(0);
  });
});
