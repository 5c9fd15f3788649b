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

/** product §pass-or-gas in the browser: list, sorts, filters, voting, comments, live tallies. */

async function addProducts(
  server: ServerInfo,
  rows: { name: string; category?: string; strain_type?: string; brand_id?: string }[],
): Promise<string[]> {
  const { data, error } = await adminClient(server)
    .from('products')
    .insert(
      rows.map((row) => ({ category: 'Flower', description: 'A product made for a browser test.', ...row })),
    )
    .select('id');
  expect(error).toBeNull();
  return (data ?? []).map((row) => row.id as string);
}

async function addBrand(server: ServerInfo, name: string): Promise<{ id: string; slug: string }> {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
  const { data, error } = await adminClient(server)
    .from('brands')
    .insert({ name, slug })
    .select('id, slug')
    .single();
  expect(error).toBeNull();
  return data as { id: string; slug: string };
}

/** Resolves once the page's realtime channel for this product's tally is subscribed. */
/** Resolves once the page has joined the public topic live tallies arrive on (decision 156). */
function tallyChannelReady(page: Page): Promise<void> {
  const topic = 'realtime:product-tallies';
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const text = String(payload);
        if (text.includes(topic) && text.includes('"status":"ok"')) resolve();
      });
    });
  });
}

const tag = () => randomBytes(3).toString('hex');
/** The first render of a page waits for the API; the shared test machine can be slow. */
const FIRST_LOAD = { timeout: 30_000 };

test.describe.configure({ timeout: 180_000 });

test('sorts, filters and search live in the URL; cards show tallies and uncertainty', async ({
  page,
  server,
}) => {
  const t = tag();
  const brand = await addBrand(server, `Brand ${t}`);
  // A brand without products is no choice in the filter: it would only ever list nothing.
  await addBrand(server, `Empty Brand ${t}`);
  const [loved] = await addProducts(server, [
    { name: `Loved Kush ${t}`, brand_id: brand.id, strain_type: 'indica' },
  ]);
  // Added later (its own statement, so a later created_at): first under New.
  const [newer] = await addProducts(server, [
    { name: `Newer Haze ${t}`, brand_id: brand.id, strain_type: 'sativa' },
  ]);
  await addProducts(server, [{ name: `Gummies ${t}`, category: 'Edibles', strain_type: 'n/a' }]);
  // Three counted Gas votes for one product.
  for (let i = 0; i < 3; i += 1) {
    const voter = await createMember(server);
    const { error } = await adminClient(server)
      .from('product_votes')
      .insert({ user_id: voter.id, product_id: loved, vote_type: 'gas' });
    expect(error).toBeNull();
  }

  await page.goto(`/pass-or-gas?brand=${brand.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Pass or Gas' })).toBeVisible(FIRST_LOAD);
  const cards = page.getByTestId('product-card');
  await expect(cards).toHaveCount(2, FIRST_LOAD);
  const brandFilter = page.getByLabel('Brand', { exact: true });
  await expect(brandFilter.getByRole('option', { name: `Brand ${t}`, exact: true })).toBeAttached();
  await expect(brandFilter.getByRole('option', { name: `Empty Brand ${t}` })).toHaveCount(0);
  await expect(cards.first()).toContainText(`Loved Kush ${t}`);
  // Few votes: the card shows the range, not "100%".
  await expect(cards.first().getByTestId('share-summary')).toHaveText('44%–100% Gas (only 3 counted votes)');
  await expect(cards.nth(1).getByTestId('share-summary')).toHaveText('No counted votes yet');

  await page.getByRole('button', { name: 'New', exact: true }).click();
  await expect(page).toHaveURL(/sort=new/);
  await expect(cards.first()).toContainText(`Newer Haze ${t}`);
  expect(newer).toBeTruthy();

  await page.getByLabel('Strain type').selectOption('indica');
  await expect(page).toHaveURL(/strain=indica/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Loved Kush ${t}`);

  await page.goto('/pass-or-gas');
  await page.getByLabel('Search by name').fill(`Gummies ${t}`);
  await expect(page).toHaveURL(/q=Gummies/);
  await expect(cards).toHaveCount(1);
  await page.getByLabel('Category').selectOption('Flower');
  await expect(page.getByRole('heading', { name: 'No products match' })).toBeVisible();
  // Reloading keeps every filter.
  await page.reload();
  await expect(page.getByLabel('Category')).toHaveValue('Flower');
  await expect(page.getByLabel('Search by name')).toHaveValue(`Gummies ${t}`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/category=/);
  await expectNoSeriousA11yViolations(page);
});

test('a visitor who votes is asked to sign in', async ({ page, server }) => {
  const [id] = await addProducts(server, [{ name: `Visitor Product ${tag()}` }]);
  await page.goto(`/pass-or-gas/${id}`);
  await page.getByRole('button', { name: /^Gas/ }).click(FIRST_LOAD);
  await expect(page.getByRole('dialog', { name: 'HighGrade' })).toBeVisible(FIRST_LOAD);
});

test('a member votes Gas, changes to Pass and takes the vote back', async ({ page, server, member }) => {
  const [id] = await addProducts(server, [{ name: `Vote Product ${tag()}` }]);
  await openSignedIn(page, server, member, `/pass-or-gas/${id}`);
  const gas = page.getByRole('button', { name: /^Gas/ });
  const pass = page.getByRole('button', { name: /^Pass/ });
  await expect(gas).toHaveAttribute('aria-pressed', 'false', FIRST_LOAD);

  await gas.click();
  await expect(gas).toHaveAttribute('aria-pressed', 'true');
  await expect(gas.getByTestId('gas-count')).toHaveText('1');
  await expect(page.getByTestId('vote-counts')).toHaveText('1 counted · 0 pending · 0 held for review');

  await pass.click();
  await expect(pass).toHaveAttribute('aria-pressed', 'true');
  await expect(gas).toHaveAttribute('aria-pressed', 'false', FIRST_LOAD);
  await expect(pass.getByTestId('pass-count')).toHaveText('1');
  await expect(gas.getByTestId('gas-count')).toHaveText('0');

  await pass.click();
  await expect(pass).toHaveAttribute('aria-pressed', 'false');
  await expect(pass.getByTestId('pass-count')).toHaveText('0');
  await expect(page.getByTestId('vote-counts')).toHaveText('0 counted · 0 pending · 0 held for review');
  await expect(page.getByTestId('ranking-numbers')).toContainText('Place in Top');
  await expectNoSeriousA11yViolations(page);
});

test('comments: post (markup shown as text), edit with a marker, delete, report', async ({
  page,
  server,
  member,
}) => {
  const [id] = await addProducts(server, [{ name: `Comment Product ${tag()}` }]);
  await openSignedIn(page, server, member, `/pass-or-gas/${id}`);
  const box = page.getByLabel('Add a comment');
  await expect(box).toBeVisible(FIRST_LOAD);
  await box.fill('Tastes like <b>pine</b> & citrus');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const comment = page.getByTestId('comment');
  await expect(comment).toHaveCount(1);
  await expect(comment).toContainText('Tastes like <b>pine</b> & citrus');
  await expect(comment.locator('b')).toHaveCount(0);

  await box.fill('<script>alert(1)</script>');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.getByText('Comment must not contain script markup.')).toBeVisible();

  await comment.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Edit your comment').fill('Tastes like pine, edited');
  await comment.getByRole('button', { name: 'Save' }).click();
  await expect(comment).toContainText('Tastes like pine, edited');
  await expect(comment).toContainText('(edited)');
  await expectNoSeriousA11yViolations(page);

  // Another member reports it; the report reaches the moderation queue.
  const other = await createMember(server);
  const otherPage = await page.context().browser()?.newPage();
  if (!otherPage) throw new Error('no second page');
  try {
    await otherPage.context().addCookies([{ name: 'hg_age_verified', value: '1', url: server.url }]);
    await openSignedIn(otherPage, server, other, `/pass-or-gas/${id}`);
    await otherPage.getByTestId('comment').getByRole('button', { name: 'Report' }).click(FIRST_LOAD);
    // A reason the database refuses is said at the reason, in the dialog, which stays open.
    const reason = otherPage.getByLabel('Reason (optional)');
    await reason.fill('Off topic <script>alert(1)</script>');
    await otherPage.getByRole('button', { name: 'Send report' }).click();
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expect(reason).toHaveAccessibleDescription(/^The reason may not contain script markup/);
    await expect(reason).toBeFocused();
    await reason.fill('Off topic');
    await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
    await otherPage.getByRole('button', { name: 'Send report' }).click();
    await expect(toastWith(otherPage, 'A moderator will review the comment.')).toBeVisible();
    const { data } = await adminClient(server)
      .from('moderation_items')
      .select('reports')
      .eq('product_id', id);
    expect(data).toEqual([{ reports: 1 }]);
  } finally {
    await otherPage.close();
    await deleteMember(server, other);
  }

  await comment.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No comments yet. Be the first to say what you think.')).toBeVisible();
});

async function signedInPage(browser: Browser, server: ServerInfo, member: Member, path: string) {
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  await context.addCookies([{ name: 'hg_age_verified', value: '1', url: server.url }]);
  await context.setExtraHTTPHeaders({
    'x-forwarded-for': `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
  });
  const page = await context.newPage();
  const ready = tallyChannelReady(page);
  await openSignedIn(page, server, member, path);
  await ready;
  return { page, close: () => context.close() };
}

test('a vote in one browser updates the tally in another, live', async ({ browser, server, member }) => {
  const [id] = await addProducts(server, [{ name: `Live Product ${tag()}` }]);
  const path = `/pass-or-gas/${id}`;
  const watcher = await createMember(server);
  const a = await signedInPage(browser, server, member, path);
  const b = await signedInPage(browser, server, watcher, path);
  try {
    await expect(b.page.getByTestId('gas-count')).toHaveText('0', FIRST_LOAD);
    await expect(a.page.getByTestId('gas-count')).toHaveText('0', FIRST_LOAD);
    await a.page.getByRole('button', { name: /^Gas/ }).click();
    await expect(a.page.getByTestId('gas-count')).toHaveText('1');
    await expect(b.page.getByTestId('gas-count')).toHaveText('1');
    await expect(b.page.getByTestId('vote-counts')).toHaveText('1 counted · 0 pending · 0 held for review');
  } finally {
    await a.close();
    await b.close();
    await deleteMember(server, watcher);
  }
});

test('the "How rankings work" page publishes formulas, constants and worked examples', async ({ page }) => {
  await page.goto('/pass-or-gas/how-rankings-work');
  await expect(page.getByRole('heading', { level: 1, name: 'How rankings work' })).toBeVisible(FIRST_LOAD);
  await expect(page.getByText('score = 0.4902')).toBeVisible();
  await expect(page.getByText('48 hours').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("a brand page's '#N in Top' is each product's place on the Top list (issue 34 item 8)", async ({
  page,
  server,
}) => {
  test.slow();
  const t = tag();
  const brand = await addBrand(server, `Ranked Brand ${t}`);
  const names = [`Rank One ${t}`, `Rank Two ${t}`, `Rank Three ${t}`];
  const ids = await addProducts(
    server,
    names.map((name) => ({ name, brand_id: brand.id })),
  );
  // Many counted Gas votes (14, 13, 12), so the three lead the Top list's first page.
  const voters: Member[] = [];
  try {
    for (let i = 0; i < 14; i += 1) voters.push(await createMember(server));
    for (const [index, id] of ids.entries()) {
      const { error } = await adminClient(server)
        .from('product_votes')
        .insert(
          voters.slice(index).map((voter) => ({ user_id: voter.id, product_id: id, vote_type: 'gas' })),
        );
      expect(error).toBeNull();
    }

    // The places the list gives them.
    await page.goto('/pass-or-gas');
    const cards = page.getByTestId('product-card');
    const listed = new Map<string, string>();
    for (const name of names) {
      const heading = cards.filter({ hasText: name }).getByRole('heading', { level: 2 });
      await expect(heading).toHaveText(/^#\d+/, FIRST_LOAD);
      listed.set(name, /^#(\d+)/.exec((await heading.textContent()) ?? '')?.[1] ?? '');
    }
    // Three different places, in the order of their votes.
    expect(new Set(listed.values()).size).toBe(3);
    const places = names.map((name) => Number(listed.get(name)));
    expect(places).toEqual([...places].sort((a, b) => a - b));

    // The brand page says the same places.
    await page.goto(`/brand-directory/${brand.slug}`);
    const products = page.getByTestId('brand-products').getByRole('listitem');
    for (const name of names) {
      await expect(products.filter({ hasText: name })).toContainText(
        `#${listed.get(name)} in Top`,
        FIRST_LOAD,
      );
    }
    await expectNoSeriousA11yViolations(page);
  } finally {
    for (const voter of voters) await deleteMember(server, voter);
  }
});
