import { randomBytes } from 'node:crypto';
import { gasShare } from '#web/lib/gas-share.ts';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, createMember, deleteMember, type Member } from './support/api.ts';
import { expectHomeLeaders } from './support/home-leaders.ts';

/**
 * Issue 35 parts 2–4: every number says what it is. The market headline's as-of date, stale marker and
 * range, the same on the home page and the index page (decisions 206); the home's Pass or Gas section
 * and the small-sample rule wherever a Gas share is shown (decision 208); a licence checked more than
 * 12 months ago is due for re-check and out of "verified only" (decision 207).
 */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

const seeded = { brands: [] as string[], products: [] as string[], members: [] as Member[] };

test.afterAll(async ({ server }) => {
  const service = adminClient(server);
  if (seeded.products.length) await service.from('products').delete().in('id', seeded.products);
  if (seeded.brands.length) await service.from('brands').delete().in('id', seeded.brands);
  for (const m of seeded.members) await deleteMember(server, m);
});

test('market figures: as-of dates, stale markers, range labels, and the same 1Y figures on home and index', async ({
  page,
}) => {
  await page.goto('/');
  const card = page
    .getByRole('region', { name: 'Market index' })
    .getByRole('listitem')
    .filter({ hasText: 'HighGrade Flower Price Index' });
  // The shipped flower prices end in 2026 Q1: older than a quarter, so stale (decision 206).
  await expect(card.getByTestId('headline-as-of')).toHaveText(/^As of \d{4}-\d{2}-\d{2}$/, FIRST_LOAD);
  const asOf = ((await card.getByTestId('headline-as-of').textContent()) ?? '').replace('As of ', '');
  await expect(card.getByTestId('stale-marker')).toHaveText('Stale: normally a value every quarter');
  await expect(card.getByTestId('headline-change-range')).toHaveText(/^over 1Y \(since \d{4}-\d{2}-\d{2}\)$/);
  const value = (await card.getByTestId('headline-value').textContent()) ?? '';
  const change = (await card.getByTestId('headline-change').textContent()) ?? '';
  const range = (await card.getByTestId('headline-change-range').textContent()) ?? '';
  expect(change).toMatch(/%\)$/);
  await expectNoSeriousA11yViolations(page);

  // The index page over the same range: the same value, change and range, from the same computation.
  await page.goto('/market-index?flower-price=1Y');
  const flower = page.getByRole('region', { name: 'HighGrade Flower Price Index', exact: true });
  await expect(flower.getByTestId('current-value')).toHaveText(value, FIRST_LOAD);
  await expect(flower.getByTestId('range-change')).toHaveText(change);
  await expect(flower.getByTestId('range-change-range')).toHaveText(range);
  await expect(flower.getByTestId('current-as-of')).toContainText(`As of ${asOf}`);
  await expect(flower.getByTestId('stale-marker').first()).toHaveText(
    `Stale: no newer value since ${asOf}; normally a value every quarter.`,
  );
  // Another range says so too.
  await flower.getByRole('button', { name: 'All', exact: true }).click();
  await expect(flower.getByTestId('range-change-range')).toHaveText('since the first value (2018-10-01)');

  // Each state's latest point: stale when older than a quarter, labelled with regulator and publication.
  const states = flower.getByRole('region', { name: 'States table' });
  const colorado = states
    .getByRole('row')
    .filter({ hasText: 'Colorado Department of Revenue figure as reported by' });
  await expect(colorado).toContainText('westword.com', FIRST_LOAD);
  await expect(colorado.getByTestId('stale-marker')).toBeVisible();
  // The per-state series beside the composite, each in its own unit and statistic.
  const series = flower.getByTestId('flower-series');
  await expect(series.getByRole('columnheader', { name: 'CO, USD/lb' })).toBeVisible();
  await expect(series.getByRole('columnheader', { name: 'MI, USD/oz' })).toBeVisible();
  await expect(series.locator('tr[data-quarter="2026 Q1"]')).toContainText('648.00');
  await expect(series.locator('tr[data-quarter="2024 Q4"]')).toContainText('median (AMR)');
  await expect(series.locator('tr[data-quarter="2024 Q4"]')).toContainText('average');
  await expectNoSeriousA11yViolations(page);
});

test('home Pass or Gas section says what it lists; Gas shares follow the small-sample rule; a licence due for re-check', async ({
  page,
  server,
}) => {
  const service = adminClient(server);
  const t = randomBytes(4).toString('hex');
  const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
  const recent = new Date(Date.now() - 10 * 86_400_000).toISOString();
  const brands = await service
    .from('brands')
    .insert(
      [
        ['Old Check', old],
        ['Fresh Check', recent],
      ].map(([name, at]) => ({
        name: `${name} ${t}`,
        slug: `${name?.toLowerCase().replace(' ', '-')}-${t}`,
        states: ['CO'],
        licence_number: `CO-${name?.charAt(0)}-${t}`,
        licence_state: 'CO',
        verification: 'verified',
        verified_at: at,
        verification_note: 'Checked on the state register.',
      })),
    )
    .select('id, slug, name');
  expect(brands.error).toBeNull();
  seeded.brands.push(...(brands.data ?? []).map((row) => row.id as string));
  const fresh = brands.data?.find((row) => row.name === `Fresh Check ${t}`);
  const stale = brands.data?.find((row) => row.name === `Old Check ${t}`);
  // The fresh brand's product has three Gas votes: under 10, so its share reads as a range.
  const product = await service
    .from('products')
    .insert({ name: `Few Votes ${t}`, category: 'Flower', brand_id: fresh?.id })
    .select('id')
    .single();
  expect(product.error).toBeNull();
  seeded.products.push(product.data?.id);
  for (let i = 0; i < 3; i += 1) {
    const voter = await createMember(server);
    seeded.members.push(voter);
    const vote = await service
      .from('product_votes')
      .insert({ user_id: voter.id, product_id: product.data?.id, vote_type: 'gas' });
    expect(vote.error).toBeNull();
  }

  // Home: the section is named for the all-time Top list, and every share in it follows the rule.
  await page.goto('/');
  await expectHomeLeaders<{ id: string; gas: number; pass: number; counted: number }>(
    page,
    service,
    'gas, pass, counted',
    async (ranked, items) => {
      for (const row of ranked) {
        const item = items.filter({ has: page.locator(`a[href="/pass-or-gas/${row.id}"]`) });
        if (row.counted === 0) await expect(item).toContainText('No votes yet', { timeout: 2_000 });
        else
          await expect(item.getByTestId('leader-share')).toContainText(gasShare(row.gas, row.pass), {
            timeout: 2_000,
          });
        if (row.counted > 0 && row.counted < 10)
          await expect(item).toContainText(`only ${row.counted}`, { timeout: 2_000 });
      }
    },
  );
  // The home's brands: recently added with a current check, the check's date shown; not the old check.
  const homeBrands = page.getByRole('region', { name: 'Recently added brands with a verified licence' });
  await expect(homeBrands.getByRole('listitem').filter({ hasText: `Fresh Check ${t}` })).toContainText(
    /checked [A-Z][a-z]{2} \d{1,2}, \d{4}/,
    FIRST_LOAD,
  );
  await expect(homeBrands).not.toContainText(`Old Check ${t}`);
  await expectNoSeriousA11yViolations(page);

  // "How rankings work" says plainly which part of Trending cannot be checked, and how to bound it.
  await page.goto('/pass-or-gas/how-rankings-work');
  const trending = page.getByTestId('trending-check');
  await expect(trending).toContainText('Trending cannot be recomputed exactly from public data', FIRST_LOAD);
  await expect(trending).toContainText('between 0.0000 and 0.7071');

  // The directory: the old check is due for re-check, with its date; "verified only" leaves it out.
  await page.goto(`/brand-directory?q=${t}`);
  const cards = page.getByTestId('brand-card');
  const oldCard = cards.filter({ hasText: `Old Check ${t}` });
  await expect(oldCard.getByTestId('verification-badge')).toHaveText(
    /^Due for re-check · last checked [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    FIRST_LOAD,
  );
  const freshCard = cards.filter({ hasText: `Fresh Check ${t}` });
  await expect(freshCard.getByTestId('verification-badge')).toHaveText('Licence verified');
  await expect(freshCard.getByTestId('verification-checked')).toHaveText(
    /^checked [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
  );
  // The brand's Gas share follows the product card's rule (the brand's tallies follow within a second).
  await expect(freshCard.getByTestId('brand-share')).toHaveText(
    '44%–100% Gas across 1 product (only 3 counted votes)',
    FIRST_LOAD,
  );
  // The box follows the address, which changes just after the click: click, then wait for both.
  const verifiedOnly = page.getByLabel('Verified licences only');
  await verifiedOnly.click();
  await expect(page).toHaveURL(/verified=1/);
  await expect(verifiedOnly).toBeChecked();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Fresh Check ${t}`);
  await expectNoSeriousA11yViolations(page);

  // The trust page says why, and when it was checked.
  await page.goto(`/brand-directory/${stale?.slug}`);
  await expect(page.getByTestId('verification-text')).toContainText('due for re-check', FIRST_LOAD);
  await expect(page.getByTestId('verification-text')).toContainText('more than 12 months ago');
});
