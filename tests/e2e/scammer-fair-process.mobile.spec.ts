import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, createMember, deleteMember, openSignedIn, type ServerInfo } from './support/api.ts';
import {
  acceptTakedownAndRepublish,
  fileReport,
  publishedReport,
  REPORT_SUMMARY,
  representativeOfNewBrand,
  sendTakedownRequest,
} from './support/fair-process.ts';
import { expectNoHorizontalOverflow, expectUsable } from './support/phone.ts';

/**
 * Issue 32's fair process on a 390 px phone, as the desktop specs walk it (scammer-database.spec.ts,
 * scammer-evidence-reply.spec.ts): an admin's own report offers no review step; a brand's representative
 * reads a report about their brand from the brand page without a subscription, answers it and hears the
 * outcome; a watcher is alerted once, told once of a withdrawal, and a withdrawn or deleted report's
 * address shows its dated notice (decisions 195, 201–203, 239). Each page fits the screen, its controls
 * can be tapped, axe clean.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 390, height: 844 } });

const suffix = () => Math.random().toString(36).slice(2, 7);
const main = (page: Page) => page.getByRole('main');

async function setStatus(server: ServerInfo, id: string, status: string) {
  const { error } = await adminClient(server)
    .from('scammer_reports')
    .update({ status, public_summary: REPORT_SUMMARY })
    .eq('id', id);
  expect(error).toBeNull();
}

test("an admin's own report offers no review step on a phone", async ({ page, server, member }) => {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  const own = await fileReport(server, member, `Ophelia Ownphone ${suffix()}`);
  await openSignedIn(page, server, member, `/admin/reports/${own}`);
  await expect(main(page).getByTestId('own-report')).toHaveText(
    'You filed this report, so another admin reviews, redacts and publishes it.',
  );
  await expect(main(page).getByRole('button', { name: 'Claim for review' })).toHaveCount(0);
  await expect(main(page).getByRole('button', { name: 'Publish' })).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
});

test('a representative reads a report about their brand from the brand page, answers it and hears the outcome, on a phone', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const reporter = await createMember(server);
  try {
    const brand = await representativeOfNewBrand(server, member, 'Phone Hearing Farms');
    const name = `Phoebe Namedonphone ${suffix()}`;
    const id = await publishedReport(server, reporter, name, brand.id);

    await openSignedIn(page, server, member, `/brand-directory/${brand.slug}`);
    const reports = page.getByTestId('brand-reports');
    await expect(reports.getByRole('heading', { name: 'Named in a report? Reply' })).toBeVisible();
    await expect(reports).toContainText('you read its reports free of charge');
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);
    const read = reports.getByRole('link', { name: /^Read the report filed on/ });
    await expectUsable(read, { inline: true });
    await read.click();
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(main(page).getByRole('region', { name: "Summary by HighGrade's reviewers" })).toContainText(
      REPORT_SUMMARY,
    );
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    // The reply page from the brand page: the report being answered, then the request.
    await page.goto(`${server.url}/brand-directory/${brand?.slug}`);
    const reply = page
      .getByTestId('brand-reports')
      .getByRole('link', { name: /^Reply to the report filed on/ });
    await expectUsable(reply, { inline: true });
    await reply.click();
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}/reply$`));
    await expect(
      main(page).getByRole('region', { name: `The report you are answering: ${name}` }),
    ).toContainText(REPORT_SUMMARY);
    await expectUsable(main(page).getByRole('button', { name: 'Send for review' }));
    await sendTakedownRequest(page);
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    // Accepted, reviewed again and republished: the sender hears both in the bell.
    await acceptTakedownAndRepublish(server, id);
    await page.reload();
    await expect(main(page).getByText('Accepted', { exact: true })).toBeVisible();
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    await expectUsable(bell);
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel).toContainText('The report you asked us to take down is published again');
    await expect(panel).toContainText('Your takedown request was accepted');
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await deleteMember(server, reporter);
  }
});

test('a watcher on a phone is alerted once, told once of a withdrawal, and a withdrawn or deleted report shows its notice', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const reporter = await createMember(server);
  try {
    const name = `Wendell Watchedphone ${suffix()}`;
    await openSignedIn(page, server, member, '/scammer-database');
    const watchForm = main(page).getByRole('form', { name: 'Add a watch' });
    await watchForm.getByLabel('Watch a').selectOption('name');
    await watchForm.getByLabel('Name to watch').fill(name);
    const watch = watchForm.getByRole('button', { name: 'Watch' });
    await expectUsable(watch);
    await watch.click();
    await expect(main(page).getByRole('list', { name: 'Your watches' })).toContainText(name);
    await expectNoHorizontalOverflow(page);

    const id = await fileReport(server, reporter, name);
    await setStatus(server, id, 'under_review');
    await setStatus(server, id, 'published');

    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const items = panel.getByRole('list', { name: 'Latest notifications' }).getByRole('listitem');
    const alerts = items.filter({ hasText: 'A new report matches your watch' });
    const withdrawals = items.filter({ hasText: 'A report you were alerted to was withdrawn' });
    const look = async (expected: { alerts: number; withdrawals: number }) => {
      await page.reload();
      await bell.click();
      await expect(alerts).toHaveCount(expected.alerts);
      await expect(withdrawals).toHaveCount(expected.withdrawals);
    };
    await look({ alerts: 1, withdrawals: 0 });
    await expect(alerts.first()).toContainText(name);
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);
    await alerts.first().getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // Withdrawn: told once; the page the watcher had open shows the dated notice.
    await setStatus(server, id, 'under_review');
    await look({ alerts: 1, withdrawals: 1 });
    await page.keyboard.press('Escape');
    await expect(main(page).getByTestId('withdrawn-notice')).toContainText(/withdrawn on .+ after review/);
    await expect(main(page)).not.toContainText('nothing ever arrived');
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    // Republished, withdrawn, republished: no second alert nor withdrawal notice.
    await setStatus(server, id, 'published');
    await setStatus(server, id, 'under_review');
    await setStatus(server, id, 'published');
    await look({ alerts: 1, withdrawals: 1 });
    await page.keyboard.press('Escape');

    // Deleted outright while published (decision 239): its address keeps the notice; the watcher, told
    // of its withdrawal already, is not told again. A second report, deleted at its first withdrawal,
    // is told.
    const service = adminClient(server);
    expect((await service.from('scammer_reports').delete().eq('id', id)).error).toBeNull();
    const second = await fileReport(server, reporter, name);
    await setStatus(server, second, 'under_review');
    await setStatus(server, second, 'published');
    await look({ alerts: 2, withdrawals: 1 });
    await page.keyboard.press('Escape');
    expect((await service.from('scammer_reports').delete().eq('id', second)).error).toBeNull();
    await look({ alerts: 2, withdrawals: 2 });
    await page.keyboard.press('Escape');
    for (const gone of [id, second]) {
      await page.goto(`${server.url}/scammer-database/${gone}`);
      await expect(main(page).getByTestId('withdrawn-notice')).toContainText(/withdrawn on .+ after review/);
    }
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await deleteMember(server, reporter);
  }
});
