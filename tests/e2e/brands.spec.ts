import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';

/** product §brand-directory in the browser: typo search, filters, pages, trust page, claims, admin verify. */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

const tag = () => randomBytes(5).toString('hex');

const seeded: { brands: string[]; members: Member[] } = { brands: [], members: [] };

async function addBrands(
  server: ServerInfo,
  rows: Record<string, unknown>[],
): Promise<{ id: string; slug: string }[]> {
  const { data, error } = await adminClient(server)
    .from('brands')
    .insert(rows, { defaultToNull: false })
    .select('id, slug');
  expect(error).toBeNull();
  const created = (data ?? []) as { id: string; slug: string }[];
  seeded.brands.push(...created.map((row) => row.id));
  return created;
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
  if (seeded.brands.length) {
    await service.from('scammer_reports').delete().in('brand_id', seeded.brands);
    await service.from('products').delete().in('brand_id', seeded.brands);
    await service.from('brands').delete().in('id', seeded.brands);
  }
  for (const m of seeded.members) await deleteMember(server, m);
  seeded.brands = [];
  seeded.members = [];
});

async function signedInPage(browser: Browser, server: ServerInfo, who: Member, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  await context.addCookies([{ name: 'hg_age_verified', value: '1', url: server.url }]);
  await context.setExtraHTTPHeaders({
    'x-forwarded-for': `10.98.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
  });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openSignedIn(page, server, who, path);
  return page;
}

test('typo search, filters, sorts and pages live in the URL', async ({ page, server }) => {
  const t = tag();
  await addBrands(server, [
    {
      name: `Green Thumb ${t}`,
      slug: `green-thumb-${t}`,
      states: ['NV'],
      categories: ['Flower'],
      licence_number: `NV-${t}`,
      licence_state: 'NV',
      verification: 'verified',
      // Within the 12-month re-check period whenever the test runs (decision 207).
      verified_at: new Date(Date.now() - 27 * 86_400_000).toISOString(),
      verification_note: 'Checked on the state register.',
    },
    { name: `Harbor Extracts ${t}`, slug: `harbor-${t}`, states: ['OR'], categories: ['Concentrates'] },
    ...Array.from({ length: 25 }, (_, index) => ({
      name: `Filler ${t} ${String(index).padStart(2, '0')}`,
      slug: `filler-${t}-${index}`,
      states: ['CO'],
      categories: ['Edibles'],
    })),
  ]);

  await page.goto(`/brand-directory?q=${encodeURIComponent(`gren thum ${t}`)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Brand Directory' })).toBeVisible(FIRST_LOAD);
  const cards = page.getByTestId('brand-card');
  await expect(cards.first()).toContainText(`Green Thumb ${t}`, FIRST_LOAD);
  await expect(cards.first().getByTestId('verification-badge')).toHaveText('Licence verified');
  await expect(cards.first()).toContainText(`Licence NV NV-${t}`);
  await expect(cards.first().getByTestId('brand-share')).toHaveText('No products listed yet');

  // Search by the tag alone: all 27 brands, two pages of 24.
  await page.getByLabel('Search by name').fill(t);
  await expect(page).toHaveURL(new RegExp(`q=${t}`));
  await expect(page.getByTestId('brand-count')).toHaveText('27 brands · page 1 of 2');
  await expect(cards).toHaveCount(24);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(cards).toHaveCount(3);
  await page.reload();
  await expect(page.getByTestId('brand-count')).toHaveText('27 brands · page 2 of 2', FIRST_LOAD);
  await expect(page.getByLabel('Search by name')).toHaveValue(t);

  // A filter starts again at page 1 and keeps the search.
  await page.getByLabel('State').selectOption('OR');
  await expect(page).toHaveURL(/state=OR/);
  await expect(page).not.toHaveURL(/page=/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Harbor Extracts ${t}`);
  await page.getByLabel('State').selectOption('');
  await page.getByLabel('Category').selectOption('Flower');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Green Thumb ${t}`);
  await page.getByLabel('Category').selectOption('');
  // The box follows the address, which changes just after the click: click, then wait for both.
  const verifiedOnly = page.getByLabel('Verified licences only');
  await verifiedOnly.click();
  await expect(page).toHaveURL(/verified=1/);
  await expect(verifiedOnly).toBeChecked();
  await expect(cards).toHaveCount(1);
  await verifiedOnly.click();
  await expect(page).not.toHaveURL(/verified=1/);
  await expect(verifiedOnly).not.toBeChecked();
  await page.getByLabel('Sort by').selectOption('name');
  await expect(page).toHaveURL(/sort=name/);
  await expect(cards.first()).toContainText(`Filler ${t} 00`);
  await page.getByLabel('State').selectOption('AK');
  await expect(page.getByRole('heading', { name: 'No brands match' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/state=|q=/);
  await expectNoSeriousA11yViolations(page);
});

test('the trust page: identity, licence, products with tallies, report summary behind the access rule', async ({
  page,
  server,
}) => {
  const t = tag();
  const [brand] = await addBrands(server, [
    {
      name: `Trust Farms ${t}`,
      slug: `trust-farms-${t}`,
      description: 'A family farm in the hills.',
      states: ['CA'],
      city: 'Eureka',
      categories: ['Flower'],
      website: 'https://trustfarms.example',
      social_links: ['https://instagram.com/trustfarms'],
      licence_number: `C11-${t}`,
      licence_state: 'CA',
      licence_type: 'Adult-use cultivation',
    },
  ]);
  const { data: product, error } = await adminClient(server)
    .from('products')
    .insert({ name: `Trust Kush ${t}`, category: 'Flower', brand_id: brand?.id })
    .select('id')
    .single();
  expect(error).toBeNull();
  const reporter = await member(server);
  const report = await adminClient(server).from('scammer_reports').insert({
    scammer_name: 'Impostor',
    scammer_description: 'Pretended to sell for the brand.',
    incident_details: 'Took payment by app and never shipped anything.',
    reporter_user_id: reporter.id,
    status: 'published',
    brand_id: brand?.id,
  });
  expect(report.error).toBeNull();

  await page.goto(`/brand-directory/${brand?.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: `Trust Farms ${t}` })).toBeVisible(FIRST_LOAD);
  await expect(page.getByText('A family farm in the hills.')).toBeVisible();
  await expect(page.getByText('Eureka · California')).toBeVisible();
  const website = page.getByRole('link', { name: /trustfarms\.example/ });
  await expect(website).toHaveAttribute('rel', 'noopener nofollow');
  await expect(website).toHaveAttribute('href', 'https://trustfarms.example');
  await expect(page.getByRole('link', { name: /instagram\.com/ })).toHaveAttribute(
    'rel',
    'noopener nofollow',
  );

  const licence = page.getByTestId('brand-licence');
  await expect(licence).toContainText(`C11-${t}`);
  await expect(licence).toContainText('Adult-use cultivation');
  await expect(licence.getByTestId('verification-text')).toHaveText(
    'This licence has not been verified by HighGrade. Check it with the issuing state before you trade.',
  );
  await expect(page.getByTestId('header-licence')).toHaveText(`Licence CA C11-${t}`);

  const products = page.getByTestId('brand-products');
  await expect(products.getByTestId('product-tally')).toHaveText('0 Gas · 0 Pass');
  await products.getByRole('link', { name: `Trust Kush ${t}` }).click();
  await expect(page).toHaveURL(new RegExp(`/pass-or-gas/${product?.id}$`));
  await page.goBack();

  const reports = page.getByTestId('brand-reports');
  await expect(reports.getByTestId('report-summary')).toHaveText('1 published report by members', FIRST_LOAD);
  await expect(reports).toContainText('they are not a verdict on the brand');
  await expect(reports.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(reports).not.toContainText('never shipped');
  await expectNoSeriousA11yViolations(page);
});

test('claim → admin approves → the representative edits description and links', async ({
  page,
  server,
  browser,
}) => {
  test.slow();
  const t = tag();
  const [brand] = await addBrands(server, [
    { name: `Claimable ${t}`, slug: `claimable-${t}`, licence_number: `L-${t}`, licence_state: 'WA' },
  ]);
  const rep = await member(server);
  const admin = await member(server, true);

  // The page asks once, as its member: not first as a visitor, then again once the session is confirmed
  // (which rendered it twice, and a link found in the first rendering was gone when tapped).
  const asks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/rpc/brand_page')) asks.push(request.headers().authorization ?? '');
  });
  const session = await openSignedIn(page, server, rep, `/brand-directory/${brand?.slug}`);
  await expect(page.getByRole('button', { name: 'Claim this brand' })).toBeVisible(FIRST_LOAD);
  expect(asks).toEqual([`Bearer ${session.access_token}`]);
  await page.getByRole('button', { name: 'Claim this brand' }).click();
  const dialog = page.getByRole('dialog', { name: `Claim Claimable ${t}` });
  await dialog.getByLabel('Your role at the brand').fill('Head of marketing');
  await dialog.getByLabel(/How can an admin confirm it/).fill('Email me at my brand address.');
  await dialog.getByRole('button', { name: 'Send claim' }).click();
  await expect(toastWith(page, 'Claim sent')).toBeVisible();
  await expect(page.getByTestId('claim-status')).toContainText("waiting for an admin's review");

  const adminPage = await signedInPage(browser, server, admin, '/admin/brands');
  try {
    const claim = adminPage.getByTestId('admin-claim').filter({ hasText: `Claimable ${t}` });
    await expect(claim).toBeVisible(FIRST_LOAD);
    await expect(claim).toContainText('Head of marketing');
    await claim.getByRole('button', { name: /^Approve/ }).click();
    await expect(claim).toContainText('approved');
  } finally {
    await adminPage.context().close();
  }

  await page.reload();
  await page.getByRole('button', { name: 'Edit brand profile' }).click(FIRST_LOAD);
  const edit = page.getByRole('dialog', { name: `Edit Claimable ${t}` });
  await edit.getByLabel('Description').fill('Small-batch growers on the coast.');
  await edit.getByLabel('Website').fill('not a url');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('alert')).toHaveText('The website must be a full http:// or https:// address.');
  await edit.getByLabel('Website').fill('https://claimable.example');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toastWith(page, 'Brand profile saved')).toBeVisible();
  await expect(page.getByText('Small-batch growers on the coast.')).toBeVisible();
  await expect(page.getByRole('link', { name: /claimable\.example/ })).toHaveAttribute(
    'rel',
    'noopener nofollow',
  );
  // The licence is not the representative's to change.
  await expect(page.getByTestId('header-licence')).toHaveText(`Licence WA L-${t}`);
  await expectNoSeriousA11yViolations(page);
});

test('an admin verifies a licence with date and evidence; the trust page says so', async ({
  page,
  server,
}) => {
  const t = tag();
  const [brand] = await addBrands(server, [{ name: `Verify Me ${t}`, slug: `verify-me-${t}` }]);
  const admin = await member(server, true);
  await openSignedIn(page, server, admin, '/admin/brands');
  await page.getByLabel('Find a brand').fill(`Verify Me ${t}`);
  const row = page.getByTestId('admin-brand').filter({ hasText: `Verify Me ${t}` });
  await row.getByRole('button', { name: /^Edit/ }).click(FIRST_LOAD);
  await page.getByLabel('Verification').selectOption('verified');
  await page.getByRole('button', { name: 'Save brand' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'A verified licence needs its number, issuing state, the verification date and an evidence note.',
  );
  await page.getByLabel('Licence number').fill(`C10-${t}`);
  await page.getByLabel('Issuing state').selectOption('CA');
  await page.getByLabel('Licence type').fill('Retailer');
  await page.getByLabel('Verified on').fill('2026-11-02');
  await page.getByLabel(/^Evidence note/).fill('Active on the DCC licence search.');
  await page.getByRole('button', { name: 'Save brand' }).click();
  await expect(toastWith(page, 'Brand saved')).toBeVisible();
  await expect(row.getByTestId('verification-badge')).toHaveText('Licence verified');
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/brand-directory/${brand?.slug}`);
  await expect(page.getByTestId('brand-licence').getByTestId('verification-text')).toHaveText(
    'HighGrade checked this licence on November 2, 2026. Evidence: Active on the DCC licence search.',
    FIRST_LOAD,
  );
});

test('an admin merges a duplicate into a brand found by name in the merge dialog', async ({
  page,
  server,
}) => {
  const t = tag();
  const [duplicate, keeper] = await addBrands(server, [
    { name: `Zulu Duplicate ${t}`, slug: `zulu-duplicate-${t}` },
    { name: `Zulu Keeper ${t}`, slug: `zulu-keeper-${t}` },
  ]);
  const admin = await member(server, true);
  await openSignedIn(page, server, admin, '/admin/brands');
  await page.getByLabel('Find a brand', { exact: true }).fill(`Zulu Duplicate ${t}`);
  const row = page.getByTestId('admin-brand').filter({ hasText: `Zulu Duplicate ${t}` });
  await row.getByRole('button', { name: /^Merge/ }).click(FIRST_LOAD);
  const dialog = page.getByRole('dialog');
  // The brand to keep is found by name, wherever it sorts in a long directory.
  await dialog.getByLabel('Find the brand to keep').fill(`Zulu Keeper ${t}`);
  await expect(dialog.getByText('1 brand matches.')).toBeVisible();
  await dialog.getByLabel('Brand to keep', { exact: true }).selectOption(keeper?.id ?? '');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Merge' }).click();
  await expect(toastWith(page, 'Brands merged')).toBeVisible();
  await page.getByLabel('Show archived brands').check();
  await page.getByLabel('Find a brand', { exact: true }).fill(`Zulu Duplicate ${t}`);
  await expect(
    page
      .getByTestId('admin-brand')
      .filter({ hasText: `Zulu Duplicate ${t}` })
      .getByText('Archived'),
  ).toBeVisible();
  const { data } = await adminClient(server)
    .from('brands')
    .select('merged_into')
    .eq('id', duplicate?.id)
    .single();
  expect(data?.merged_into).toBe(keeper?.id);
});

test('a new claim stays in view however many representatives were approved before it', async ({
  page,
  server,
}) => {
  const t = tag();
  const brands = await addBrands(
    server,
    Array.from({ length: 102 }, (_, i) => ({ name: `Represented ${i} ${t}`, slug: `represented-${i}-${t}` })),
  );
  const rep = await member(server);
  const admin = await member(server, true);
  const [waiting, ...represented] = brands;
  // 101 representatives approved before, then one claim waiting: read together, oldest first, the old
  // list showed the approved ones and cut the new claim off.
  const approved = await adminClient(server)
    .from('brand_claims')
    .insert(
      represented.map((brand, i) => ({
        brand_id: brand.id,
        user_id: rep.id,
        role_title: 'Owner',
        status: 'approved',
        decided_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    );
  expect(approved.error).toBeNull();
  const pending = await adminClient(server)
    .from('brand_claims')
    .insert({ brand_id: waiting?.id, user_id: rep.id, role_title: 'Head of growing' });
  expect(pending.error).toBeNull();

  await openSignedIn(page, server, admin, '/admin/brands');
  const waitingList = page.getByRole('list', { name: 'Waiting for a decision' });
  await expect(waitingList.getByTestId('admin-claim').filter({ hasText: `Represented 0 ${t}` })).toBeVisible(
    FIRST_LOAD,
  );
  const approvedList = page.getByRole('list', { name: 'Approved representatives' });
  // The most recently approved; the oldest of the 101 is cut, and the list says so.
  await expect(
    approvedList.getByTestId('admin-claim').filter({ hasText: `Represented 101 ${t}` }),
  ).toBeVisible();
  await expect(approvedList.getByTestId('admin-claim').filter({ hasText: `Represented 1 ${t}` })).toHaveCount(
    0,
  );
  await expect(page.getByText('The 100 most recently approved are shown.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
