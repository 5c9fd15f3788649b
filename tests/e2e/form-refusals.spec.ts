import {
  AGE_COOKIE,
  expect as baseExpect,
  expectNoSeriousA11yViolations,
  test,
  toastWith,
  waitForApp,
} from './fixtures.ts';
import { adminClient, createMember, deleteMember, openSignedIn } from './support/api.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/**
 * Issue 34 item 5 (decision 180): a write the database refuses shows the rule's sentence at the field it
 * concerns (aria-invalid, aria-describedby) and says that saving again as it is cannot help — not "An error
 * occurred. Please try again.".
 */

// The browser logs each refused request (400); the test checks that those are the only errors.
test.use({ allowConsoleErrors: true });

test('a post with <script> shows the reason at its content; a product with THC 30 to 20 at THC to', async ({
  page,
  server,
  member,
  consoleErrors,
}) => {
  test.slow();
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();

  await openSignedIn(page, server, member, '/admin/posts/new');
  await expect(page.getByRole('heading', { level: 3, name: 'New post' })).toBeVisible();
  await page.getByLabel(/^Title/).fill(`Refused ${Date.now().toString(36)}`);
  await page.getByLabel(/^Content \(Markdown\)/).fill('Hello <script>alert(1)</script>');
  await page.getByRole('button', { name: 'Create post' }).click();
  const content = page.getByLabel(/^Content \(Markdown\)/);
  await expect(content).toHaveAttribute('aria-invalid', 'true');
  await expect(content).toHaveAccessibleDescription(/The content may not contain script markup/);
  await expect(toastWith(page, 'refused the same way')).toBeVisible();
  await expect(page.getByText('An error occurred. Please try again.')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await page.goto('/admin/products');
  await page.getByRole('button', { name: 'New product' }).click();
  // The form opens (stop 46's CI run once waited 9 minutes here for a form that never opened after a
  // click the page's own layout intercepted first: this says so in 30 s instead).
  await expect(page.getByRole('form', { name: 'New product' })).toBeVisible();
  await page.getByLabel('Name').fill(`Refused product ${Date.now().toString(36)}`);
  await page.getByLabel('THC from (%)').fill('30');
  await page.getByLabel('THC to (%)').fill('20');
  await page.getByRole('button', { name: 'Create product' }).click();
  const thcTo = page.getByLabel('THC to (%)');
  await expect(thcTo).toHaveAttribute('aria-invalid', 'true');
  await expect(thcTo).toHaveAccessibleDescription('THC "to" must be at least THC "from".');
  await expect(thcTo).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: /refused the same way/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Changing the field clears its problem.
  await thcTo.fill('35');
  await expect(thcTo).not.toHaveAttribute('aria-invalid', 'true');
  expect(consoleErrors).toEqual([
    expect.stringContaining('status of 400'),
    expect.stringContaining('status of 400'),
  ]);
});

test('the claim, representative edit, licence, comment, report review, reply and booking note forms show the database’s reason at the field', async ({
  page,
  server,
  member,
  browser,
}) => {
  test.slow();
  const service = adminClient(server);
  const t = Date.now().toString(36);
  const made: { brands: string[]; products: string[]; reports: string[]; bookings: string[] } = {
    brands: [],
    products: [],
    reports: [],
    bookings: [],
  };
  const rep = await createMember(server);
  const reporter = await createMember(server);
  try {
    const brand = await service
      .from('brands')
      .insert({ name: `Refusing Brand ${t}`, slug: `refusing-brand-${t}`, states: ['WA'] })
      .select('id, slug')
      .single();
    expect(brand.error).toBeNull();
    made.brands.push(brand.data?.id);
    const product = await service
      .from('products')
      .insert({ name: `Refusing Kush ${t}`, category: 'Flower', description: 'For a browser test.' })
      .select('id')
      .single();
    expect(product.error).toBeNull();
    made.products.push(product.data?.id);

    // Claim this brand: a role with HTML is refused at "Your role at the brand".
    const repPage = await (await browser.newContext()).newPage();
    await repPage.context().addCookies([{ name: AGE_COOKIE, value: '1', url: server.url, sameSite: 'Lax' }]);
    await openSignedIn(repPage, server, rep, `/brand-directory/${brand.data?.slug}`);
    await repPage.getByRole('button', { name: 'Claim this brand' }).click();
    const claim = repPage.getByRole('dialog', { name: `Claim Refusing Brand ${t}` });
    await claim.getByLabel('Your role at the brand').fill('<b>Owner</b>');
    await claim.getByRole('button', { name: 'Send claim' }).click();
    const role = claim.getByLabel('Your role at the brand');
    await expect(role).toHaveAttribute('aria-invalid', 'true');
    await expect(role).toHaveAccessibleDescription('Your role may not contain HTML tags.');
    await expect(role).toBeFocused();
    await expect(claim.getByText(/refused the same way/)).toBeVisible();
    await role.fill('Owner');
    await expect(role).not.toHaveAttribute('aria-invalid', 'true');
    await claim.getByRole('button', { name: 'Send claim' }).click();
    await expect(toastWith(repPage, 'Claim sent')).toBeVisible();

    // The representative's edit: script markup in the description is refused at Description.
    const pending = await service
      .from('brand_claims')
      .update({ status: 'approved' })
      .eq('brand_id', brand.data?.id)
      .eq('user_id', rep.id)
      .select('id');
    expect(pending.error).toBeNull();
    expect(pending.data).toHaveLength(1);
    await repPage.reload();
    await waitForApp(repPage);
    await repPage.getByRole('button', { name: 'Edit brand profile' }).click();
    const edit = repPage.getByRole('dialog', { name: `Edit Refusing Brand ${t}` });
    await edit.getByLabel('Description').fill('Growers. <script>alert(1)</script>');
    await edit.getByRole('button', { name: 'Save' }).click();
    const description = edit.getByLabel('Description');
    await expect(description).toHaveAttribute('aria-invalid', 'true');
    await expect(description).toHaveAccessibleDescription(
      'The description may not contain script markup (<script>, on…= handlers or javascript: links).',
    );
    await expect(edit.getByText(/refused the same way/)).toBeVisible();
    await expectNoSeriousA11yViolations(repPage);
    await repPage.context().close();

    // A comment the database refuses (the page's own check passed: the request was changed on its way)
    // is marked at the comment box.
    await page.route('**/rest/v1/product_comments*', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.fallback();
      const body = JSON.parse(request.postData() ?? '{}') as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, content: '<script>x</script>' }) });
    });
    await openSignedIn(page, server, member, `/pass-or-gas/${product.data?.id}`);
    await page.getByLabel('Add a comment').fill('A fine plant.');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const box = page.getByLabel('Add a comment');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(box).toHaveAccessibleDescription(
      'A comment may not contain script markup (<script>, on…= handlers or javascript: links).',
    );
    await expect(toastWith(page, 'refused the same way')).toBeVisible();
    await page.unroute('**/rest/v1/product_comments*');

    // The member becomes an admin for the admin forms.
    expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();

    // Licences: a number with markup is refused at Number.
    await page.goto('/admin/brands');
    await page.getByLabel('Find a brand', { exact: true }).fill(`Refusing Brand ${t}`);
    const row = page.getByTestId('admin-brand').filter({ hasText: `Refusing Brand ${t}` });
    await row.getByRole('button', { name: `Edit Refusing Brand ${t}`, exact: true }).click();
    const panel = page.getByRole('region', { name: `Licences of Refusing Brand ${t}`, exact: true });
    await panel.getByRole('button', { name: 'Add a licence', exact: true }).click();
    const add = panel.getByRole('form', { name: 'Add a licence', exact: true });
    await add.getByLabel('Number', { exact: true }).fill('<script>x</script>');
    await add.getByLabel('Issued by', { exact: true }).selectOption('WA');
    await add.getByRole('button', { name: 'Add licence', exact: true }).click();
    const number = add.getByLabel('Number', { exact: true });
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toHaveAccessibleDescription(
      'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
    );
    await expect(number).toBeFocused();

    // Report review: a summary with script markup is refused at Public summary.
    const report = await service
      .from('scammer_reports')
      .insert({
        scammer_name: `Refused Reviewee ${t}`,
        scammer_description: 'Sells flower online that never ships.',
        incident_details: 'Paid upfront for two ounces by bank transfer; nothing ever arrived.',
        location: 'Tacoma, WA',
        business_name: 'Evergreen Exotics',
        contact_info: 'Reached through a message board.',
        amount_scammed: 640,
        date_of_incident: new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10),
        reporter_user_id: reporter.id,
      })
      .select('id')
      .single();
    expect(report.error).toBeNull();
    made.reports.push(report.data?.id);
    await page.goto(`/admin/reports/${report.data?.id}`);
    await page.getByRole('main').getByRole('button', { name: 'Claim for review' }).click();
    const summary = page.getByRole('main').getByLabel('Public summary');
    await summary.fill('A member reports <script>alert(1)</script>');
    await page.getByRole('main').getByRole('button', { name: 'Save changes' }).click();
    await expect(summary).toHaveAttribute('aria-invalid', 'true');
    await expect(summary).toHaveAccessibleDescription(
      /The public summary may not contain script markup \(<script>, on…= handlers or javascript: links\)\.$/,
    );
    await expect(summary).toBeFocused();
    await expect(toastWith(page, 'refused the same way')).toBeVisible();

    // A reply to a published report: a message with script markup is refused at "Your message".
    const published = await service
      .from('scammer_reports')
      .insert({
        scammer_name: `Replied Reviewee ${t}`,
        scammer_description: 'Sells flower online that never ships.',
        incident_details: 'Paid upfront for an ounce by bank transfer; nothing ever arrived.',
        amount_scammed: 200,
        reporter_user_id: reporter.id,
        status: 'published',
        public_summary: 'A member reports paying for flower that never arrived.',
        reviewed_at: new Date().toISOString(),
      })
      .select('id')
      .single();
    expect(published.error).toBeNull();
    made.reports.push(published.data?.id);
    const replyPage = await (await browser.newContext()).newPage();
    await replyPage
      .context()
      .addCookies([{ name: AGE_COOKIE, value: '1', url: server.url, sameSite: 'Lax' }]);
    await openSignedIn(replyPage, server, rep, `/scammer-database/${published.data?.id}/reply`);
    const message = replyPage.getByRole('form', { name: 'Your reply' }).getByLabel(/^Your message/);
    await message.fill('That is not what happened <script>alert(1)</script>, the parcel was sent.');
    await replyPage.getByRole('button', { name: 'Send for review' }).click();
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toHaveAccessibleDescription(/may not contain script markup/);
    await expect(message).toBeFocused();
    await expect(toastWith(replyPage, 'refused the same way')).toBeVisible();
    await expectNoSeriousA11yViolations(replyPage);
    await replyPage.context().close();

    // The booking's internal note: longer than the database keeps (the page's limit removed, as an old
    // page might have had none) is refused at the note.
    const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const booking = await service
      .from('bookings')
      .insert({
        full_name: 'Robin Booker',
        email: 'robin@example.com',
        product_name: `Refused Note ${t}`,
        product_category: 'Flower',
        booking_date: date,
        booking_time: '16:30',
      })
      .select('id')
      .single();
    expect(booking.error).toBeNull();
    made.bookings.push(booking.data?.id);
    await page.goto(`/admin/bookings/${booking.data?.id}`);
    const note = page.getByLabel('Internal note');
    await note.evaluate((element) => element.removeAttribute('maxlength'));
    await note.fill('n'.repeat(2001));
    await page.getByRole('button', { name: 'Save note' }).click();
    await expect(note).toHaveAttribute('aria-invalid', 'true');
    await expect(note).toHaveAccessibleDescription(/The internal note can be at most 2000 characters\.$/);
    await expect(toastWith(page, 'refused the same way')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  } finally {
    if (made.bookings.length) await service.from('bookings').delete().in('id', made.bookings);
    if (made.reports.length) await service.from('scammer_reports').delete().in('id', made.reports);
    if (made.products.length) await service.from('products').delete().in('id', made.products);
    if (made.brands.length) await service.from('brands').delete().in('id', made.brands);
    await deleteMember(server, rep);
    await deleteMember(server, reporter);
  }
});
