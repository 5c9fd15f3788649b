import type { Browser, Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';
import {
  acceptTakedownAndRepublish,
  publishedReport,
  REPORT_SUMMARY,
  representativeOfNewBrand,
  sendTakedownRequest,
} from './support/fair-process.ts';
import { patternPngBytes } from './support/images.ts';

/**
 * Issue 19, around a published report: the reporter attaches evidence in the report dialog (progress,
 * private bucket); the admin approves one file of two and publishes; a member with access sees only
 * the approved file; someone named in the report sends a reply (the form says removal is never for
 * payment); the admin accepts it and readers see it under the report; a duplicate merged into the
 * report leaves the readers' list.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

const suffix = () => Math.random().toString(36).slice(2, 7);
const main = (page: Page) => page.getByRole('main');
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Submit a Scammer Report' });

async function makeAdmin(server: ServerInfo, member: Member): Promise<void> {
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
}

/** A page of its own for another member (cookies of the age gate set), closed by the caller. */
async function pageFor(browser: Browser, server: ServerInfo, member: Member, path: string, mobile = false) {
  // As the fixture's page: reduced motion, or axe would measure toasts half-faded in.
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    ...(mobile ? { viewport: { width: 390, height: 844 } } : {}),
  });
  await context.addCookies([{ name: 'hg_age_verified', value: '1', url: server.url, sameSite: 'Lax' }]);
  const page = await context.newPage();
  await openSignedIn(page, server, member, path);
  return page;
}

test('evidence approved file by file, a reply sent and accepted, a duplicate merged away', async ({
  page,
  browser,
  server,
  member,
}) => {
  test.slow();
  const admin = await createMember(server);
  const reader = await createMember(server);
  const named = await createMember(server);
  await makeAdmin(server, admin);
  const service = adminClient(server);
  try {
    // The reporter (on their trial) submits with two files.
    const name = `Cornelius Shadyhands ${suffix()}`;
    await openSignedIn(page, server, member);
    await page.getByRole('banner').getByRole('button', { name: 'Submit a Tip' }).click();
    await dialog(page)
      .getByRole('textbox', { name: /^Scammer Name/ })
      .fill(name);
    await dialog(page)
      .getByRole('textbox', { name: /^Scammer Description/ })
      .fill('Sells flower online that never ships.');
    await dialog(page)
      .getByRole('textbox', { name: /^Incident Details/ })
      .fill('Paid upfront for two ounces by bank transfer; nothing ever arrived.');
    await dialog(page)
      .getByLabel('Add files')
      .setInputFiles([
        { name: 'chat.png', mimeType: 'image/png', buffer: patternPngBytes(24, 24, 1) },
        { name: 'id-card.png', mimeType: 'image/png', buffer: patternPngBytes(24, 24, 2) },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not evidence') },
      ]);
    await expect(dialog(page).getByText(/^notes\.txt: File type not allowed\./)).toBeVisible();
    await expect(
      dialog(page).getByRole('list', { name: 'Evidence files' }).getByRole('listitem'),
    ).toHaveCount(2);
    await expectNoSeriousA11yViolations(page, '[role="dialog"]');
    await dialog(page)
      .getByRole('checkbox', { name: /I confirm this report is true/ })
      .check();
    await dialog(page).getByRole('button', { name: 'Submit Report' }).click();
    await expect(
      toastWith(page, 'Thank you. Your report will be reviewed before publication.'),
    ).toBeVisible();
    await expect(dialog(page)).toBeHidden();

    const { data: stored } = await service
      .from('scammer_reports')
      .select('id')
      .eq('scammer_name', name)
      .single();
    const id = stored?.id as string;
    const { data: files } = await service
      .from('scammer_report_evidence')
      .select('object_name, file_name')
      .eq('report_id', id)
      .order('file_name');
    expect(files?.map((file) => file.file_name)).toEqual(['chat.png', 'id-card.png']);
    const listed = await service.storage.from('scammer-evidence').list(id);
    expect(listed.data).toHaveLength(2);

    // The admin claims it, approves the chat screenshot only, and publishes.
    const adminPage = await pageFor(browser, server, admin, `/admin/reports/${id}`);
    await main(adminPage).getByRole('button', { name: 'Claim for review' }).click();
    await expect(main(adminPage).getByText('claimed by you')).toBeVisible();
    await expect(main(adminPage).getByRole('img', { name: 'Evidence: id-card.png' })).toBeVisible();
    await main(adminPage).getByRole('button', { name: 'Approve chat.png' }).click();
    await expect(
      main(adminPage).getByRole('button', { name: 'Withdraw approval of chat.png' }),
    ).toBeVisible();
    await main(adminPage)
      .getByLabel('Public summary')
      .fill('A member reports paying for flower that never came.');
    await expectNoSeriousA11yViolations(adminPage);
    await main(adminPage).getByRole('button', { name: 'Publish' }).click();
    // The preview is the readers' page: the reviewers' summary labelled as theirs, the member's account
    // apart, and the one approved file.
    const preview = adminPage.getByRole('alertdialog', { name: 'Publish this report?' });
    await expect(preview.getByRole('heading', { name: "Summary by HighGrade's reviewers" })).toBeVisible();
    await expect(preview.getByRole('heading', { name: "The member's account" })).toBeVisible();
    await expect(preview.getByTestId('preview-evidence')).toHaveText(
      'Evidence: 1 approved file, without its metadata.',
    );
    await preview.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(main(adminPage).getByText('Published', { exact: true })).toBeVisible();

    // A member with access sees the approved file only, loaded through its signed link.
    const readerPage = await pageFor(browser, server, reader, `/scammer-database/${id}`);
    const evidence = main(readerPage).getByRole('region', { name: 'Evidence' });
    await expect(evidence.getByRole('img')).toHaveCount(1);
    await expect
      .poll(() => evidence.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(24);
    await expect(evidence.getByRole('img')).toHaveAttribute(
      'src',
      /\/storage\/v1\/object\/sign\/scammer-evidence\//,
    );
    await expect(main(readerPage).getByText('No reply has been published.')).toBeVisible();
    await expectNoSeriousA11yViolations(readerPage);

    // Someone named in it (no access of their own: trial over) replies, on a phone.
    await service
      .from('profiles')
      .update({ trial_ends_at: new Date(Date.now() - 86_400_000).toISOString() })
      .eq('user_id', named.id);
    const namedPage = await pageFor(browser, server, named, `/scammer-database/${id}/reply`, true);
    await expect(main(namedPage).getByText('Removal is never offered for payment.')).toBeVisible();
    await main(namedPage)
      .getByRole('radio', { name: /A correction/ })
      .check();
    await main(namedPage).getByLabel('How are you named in the report?').selectOption('business');
    await main(namedPage)
      .getByRole('textbox', { name: /Your message/ })
      .fill('too short');
    await main(namedPage).getByRole('button', { name: 'Send for review' }).click();
    await expect(main(namedPage).getByRole('textbox', { name: /Your message/ })).toHaveAccessibleDescription(
      /between 20 and 2000 characters/,
    );
    const body = `The order was shipped with tracking ${suffix()}; the buyer never collected it.`;
    await main(namedPage)
      .getByRole('textbox', { name: /Your message/ })
      .fill(body);
    await main(namedPage).getByRole('button', { name: 'Send for review' }).click();
    await expect(main(namedPage).getByText('Waiting for review')).toBeVisible();
    await expectNoSeriousA11yViolations(namedPage);

    // The admin accepts it from the replies queue; the sender is told.
    await adminPage.goto(`${server.url}/admin/reports?view=replies`);
    const request = main(adminPage).getByRole('article').filter({ hasText: body });
    // Declining needs a note: said at the note, which takes the keyboard.
    await request.getByRole('button', { name: 'Decline' }).click();
    const decisionNote = request.getByLabel(/^Note to the sender/);
    await expect(decisionNote).toHaveAttribute('aria-invalid', 'true');
    await expect(decisionNote).toHaveAccessibleDescription('Tell the sender why (at least 5 characters).');
    await expect(decisionNote).toBeFocused();
    await request.getByRole('button', { name: 'Accept and show under the report' }).click();
    await expect(request).toBeHidden();
    await expect
      .poll(async () => {
        const { data } = await service.from('notifications').select('kind').eq('user_id', named.id);
        return data?.map((note) => note.kind);
      })
      .toContain('scammer_reply.accepted');
    await namedPage.reload();
    await expect(main(namedPage).getByText('Accepted', { exact: true })).toBeVisible();

    // Readers see it under the report, without the sender.
    await readerPage.reload();
    const replies = main(readerPage).getByRole('region', { name: 'Replies from the people named' });
    await expect(replies).toContainText(body);
    await expect(replies).toContainText('Correction from the business named');

    // A duplicate of the report, merged into it, leaves the readers' search.
    const duplicateName = `${name} again`;
    const { data: duplicate } = await service
      .from('scammer_reports')
      .insert({
        scammer_name: duplicateName,
        scammer_description: 'Same seller, same story as the other report.',
        incident_details: 'Paid upfront by bank transfer for flower; the package never arrived.',
        reporter_user_id: reader.id,
      })
      .select('id')
      .single();
    await adminPage.goto(`${server.url}/admin/reports/${duplicate?.id}`);
    await main(adminPage).getByRole('button', { name: 'Claim for review' }).click();
    await main(adminPage).getByLabel('Public summary').fill('The same seller, reported again.');
    await main(adminPage).getByRole('button', { name: 'Publish' }).click();
    await adminPage
      .getByRole('alertdialog', { name: 'Publish this report?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await expect(main(adminPage).getByText('Published', { exact: true })).toBeVisible();
    await main(adminPage).getByLabel('Find the published report').fill(name.split(' ').slice(0, 2).join(' '));
    await main(adminPage)
      .getByRole('list', { name: 'Published reports found' })
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`^${name}`) })
      .getByRole('button', { name: 'Merge into this report' })
      .click();
    await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Merge' }).click();
    await expect(main(adminPage).getByText('This report is a duplicate, merged into')).toBeVisible();
    await readerPage.goto(`${server.url}/scammer-database?q=${encodeURIComponent('Shadyhands')}`);
    await expect(main(readerPage).getByRole('link', { name, exact: true })).toBeVisible();
    await expect(main(readerPage).getByRole('link', { name: duplicateName })).toHaveCount(0);

    await Promise.all([adminPage, readerPage, namedPage].map((p) => p.context().close()));
  } finally {
    await deleteMember(server, admin);
    await deleteMember(server, reader);
    await deleteMember(server, named);
  }
});

test('a brand’s representative reads and answers a report about their brand free, and hears the outcome', async ({
  page,
  browser,
  server,
  member,
}) => {
  test.slow();
  const reporter = await createMember(server);
  try {
    // The member represents the brand (an approved claim) and has no access of their own.
    const brand = await representativeOfNewBrand(server, member, 'Fair Hearing Farms');
    const name = `Fairly Named ${suffix()}`;
    const id = await publishedReport(server, reporter, name, brand.id);

    // The brand page offers the report to read and to answer.
    await openSignedIn(page, server, member, `/brand-directory/${brand.slug}`);
    const reports = page.getByTestId('brand-reports');
    await expect(reports.getByRole('heading', { name: 'Named in a report? Reply' })).toBeVisible();
    await expect(reports).toContainText('you read its reports free of charge');
    await expectNoSeriousA11yViolations(page);
    await reports.getByRole('link', { name: /^Read the report filed on/ }).click();

    // The report, free: the reviewers' summary apart from the member's account.
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(main(page).getByRole('region', { name: "Summary by HighGrade's reviewers" })).toContainText(
      REPORT_SUMMARY,
    );
    await expect(main(page).getByRole('region', { name: "The member's account" })).toContainText(
      'nothing ever arrived',
    );
    await expectNoSeriousA11yViolations(page);
    // "reviewed on" says what reviewing means.
    await main(page)
      .getByRole('link', { name: /^reviewed on/ })
      .click();
    await expect(page).toHaveURL(/\/how-reports-are-reviewed$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How reports are reviewed' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The reply page, reached from the brand page, shows the report being answered.
    await page.goto(`${server.url}/brand-directory/${brand?.slug}`);
    await page
      .getByTestId('brand-reports')
      .getByRole('link', { name: /^Reply to the report filed on/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}/reply$`));
    const answered = main(page).getByRole('region', { name: `The report you are answering: ${name}` });
    await expect(answered).toContainText(REPORT_SUMMARY);
    await sendTakedownRequest(page);
    await expectNoSeriousA11yViolations(page);

    // The reviewers accept the takedown, review again and republish: the sender is told each time.
    await acceptTakedownAndRepublish(server, id);
    await page.reload();
    await expect(main(page).getByText('Accepted', { exact: true })).toBeVisible();
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel).toContainText('The report you asked us to take down is published again');
    await expect(panel).toContainText('Your takedown request was accepted');
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    // On a phone, the reply page with the report.
    const phone = await pageFor(browser, server, member, `/scammer-database/${id}/reply`, true);
    await expect(
      main(phone).getByRole('region', { name: `The report you are answering: ${name}` }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(phone);
    await phone.context().close();
  } finally {
    await deleteMember(server, reporter);
  }
});

test('a correction shows "Updated", a withdrawal leaves its dated notice for a reader who had it open', async ({
  page,
  server,
  member,
}) => {
  const reporter = await createMember(server);
  const service = adminClient(server);
  try {
    const name = `Corrected Person ${suffix()}`;
    const id = await publishedReport(server, reporter, name);
    await openSignedIn(page, server, member, `/scammer-database/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(main(page).getByTestId('report-updated')).toHaveCount(0);

    expect(
      (
        await service
          .from('scammer_reports')
          .update({ public_summary: 'A member reports an order never sent.' })
          .eq('id', id)
      ).error,
    ).toBeNull();
    await page.reload();
    await expect(main(page).getByTestId('report-updated')).toHaveText(/^Updated .+: summary\.$/);
    await expectNoSeriousA11yViolations(page);

    expect(
      (await service.from('scammer_reports').update({ status: 'under_review' }).eq('id', id)).error,
    ).toBeNull();
    await page.reload();
    await expect(main(page).getByRole('heading', { name: 'This report was withdrawn' })).toBeVisible();
    await expect(main(page).getByTestId('withdrawn-notice')).toContainText(/withdrawn on .+ after review/);
    await expect(main(page)).not.toContainText('nothing ever arrived');
    await expectNoSeriousA11yViolations(page);
  } finally {
    await deleteMember(server, reporter);
  }
});

test('a watcher is alerted once per report: one alert, one withdrawal notice, nothing on republication (decision 203)', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const reporter = await createMember(server);
  const service = adminClient(server);
  try {
    // The member (on their trial) watches a name on the Scammer Network page.
    const name = `Wilhelmina Watchedonce ${suffix()}`;
    await openSignedIn(page, server, member, '/scammer-database');
    const watchForm = main(page).getByRole('form', { name: 'Add a watch' });
    await watchForm.getByLabel('Watch a').selectOption('name');
    await watchForm.getByLabel('Name to watch').fill(name);
    await watchForm.getByRole('button', { name: 'Watch' }).click();
    await expect(main(page).getByRole('list', { name: 'Your watches' })).toContainText(name);

    // A report naming them goes through review and is published (the server's role: review rules are
    // the SQL tests'), then withdrawn and republished twice.
    const { data, error } = await service
      .from('scammer_reports')
      .insert({
        scammer_name: name,
        scammer_description: 'Sells flower online that never ships.',
        incident_details: 'Paid upfront for two ounces by bank transfer; nothing ever arrived.',
        reporter_user_id: reporter.id,
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = data?.id as string;
    const status = async (next: string) => {
      const changed = await service
        .from('scammer_reports')
        .update({ status: next, public_summary: 'A member reports paying for an order that never came.' })
        .eq('id', id);
      expect(changed.error).toBeNull();
    };
    await status('under_review');
    await status('published');

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
    await expectNoSeriousA11yViolations(page);
    // The alert leads to the report.
    await alerts.first().getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`/scammer-database/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // Withdrawn: told once, and the report's page shows the notice.
    await status('under_review');
    await look({ alerts: 1, withdrawals: 1 });
    await page.keyboard.press('Escape');
    await expect(main(page).getByTestId('withdrawn-notice')).toBeVisible();

    // Republished, withdrawn and republished again: no second alert, no second withdrawal notice.
    await status('published');
    await status('under_review');
    await status('published');
    await look({ alerts: 1, withdrawals: 1 });
    await expectNoSeriousA11yViolations(page);
    const { data: rows } = await service
      .from('notifications')
      .select('kind')
      .eq('user_id', member.id)
      .eq('link', `/scammer-database/${id}`);
    expect(rows?.map((row) => row.kind).sort()).toEqual(['scammer_watch.match', 'scammer_watch.withdrawn']);
  } finally {
    await deleteMember(server, reporter);
  }
});
