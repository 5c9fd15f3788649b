import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, openSignedIn } from './support/api.ts';

/** Product §scammer-database on a phone: a member on their trial searches and opens a published report. */

test('a member with access searches from a phone and opens a report', async ({ page, server, member }) => {
  const name = `Mobile Marauder ${Math.random().toString(36).slice(2, 7)}`;
  const { data, error } = await adminClient(server)
    .from('scammer_reports')
    .insert({
      scammer_name: name,
      scammer_description: 'Sells flower online that never ships.',
      incident_details: 'Paid upfront for two ounces by bank transfer; nothing ever arrived.',
      business_name: 'Pocket Greens',
      amount_scammed: 120,
      reporter_user_id: member.id,
      status: 'published',
      reviewed_at: new Date().toISOString(),
    })
    .select('id')
    .single();
  expect(error).toBeNull();
  await openSignedIn(
    page,
    server,
    member,
    `/scammer-database?q=${encodeURIComponent(name.replace('Marauder', 'Maruder'))}`,
  );
  const link = page.getByRole('main').getByRole('link', { name });
  await expect(link).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/scammer-database/${data?.id}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Reported by a member on');
  await expectNoSeriousA11yViolations(page);
});
