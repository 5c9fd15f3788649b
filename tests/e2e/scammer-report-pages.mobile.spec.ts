import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';
import { expectNoHorizontalOverflow, expectUsable } from './support/phone.ts';

/**
 * Issue 32's report pages on a phone (390 px), beside the reply page (scammer-evidence-reply.spec.ts):
 * the reader's report page, the review screen with its masking, the report form. On each: nothing
 * wider than the screen, the controls inside it and large enough to tap, axe clean.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const suffix = () => Math.random().toString(36).slice(2, 7);
const main = (page: Page) => page.getByRole('main');
const LONG_INCIDENT =
  'Paid upfront for two ounces by bank transfer to an account at https://example.com/a-very-long-payment-link-without-any-spaces-in-it-at-all ' +
  'and then nothing arrived; the seller stopped answering after the payment went through.';

async function fileReport(
  server: ServerInfo,
  reporter: Member,
  name: string,
  extra: Record<string, unknown>,
) {
  const { data, error } = await adminClient(server)
    .from('scammer_reports')
    .insert({
      scammer_name: name,
      scammer_description: 'Sells flower online that never ships, under a long list of changing shop names.',
      incident_details: LONG_INCIDENT,
      business_name: 'Pocket Greens Wholesale and Delivery Collective',
      location: 'Tacoma, WA',
      contact_info: 'Call +1 253 555 0199 or @pocketgreens_wholesale_official',
      amount_scammed: 640,
      reporter_user_id: reporter.id,
      ...extra,
    })
    .select('id')
    .single();
  expect(error).toBeNull();
  return data?.id as string;
}

test("a reader's report page fits a phone: masked text, summary, the reviewed-on link and reply link usable", async ({
  page,
  server,
  member,
}) => {
  const reporter = await createMember(server);
  try {
    const name = `Maximilian Overlongsurname-Doublebarrelled ${suffix()}`;
    const id = await fileReport(server, reporter, name, {
      status: 'published',
      public_summary: 'A member reports paying upfront for two ounces that never arrived.',
      reviewed_at: new Date().toISOString(),
    });
    // A span of the contact details masked (decision 209): the server's role writes it here.
    const masked = await adminClient(server).from('scammer_report_masks').insert({
      report_id: id,
      field: 'contact_info',
      start_at: 5,
      end_at: 20,
      kind: 'manual',
      state: 'masked',
    });
    expect(masked.error).toBeNull();
    await openSignedIn(page, server, member, `/scammer-database/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(main(page)).toContainText(
      'Call [removed by the reviewers] or @pocketgreens_wholesale_official',
    );
    await expect(main(page)).not.toContainText('555 0199');
    await expect(main(page)).toContainText("Summary by HighGrade's reviewers");
    await expectNoHorizontalOverflow(page);
    await expectUsable(
      main(page)
        .getByRole('link', { name: /reviewed on/i })
        .first(),
      { inline: true },
    );
    await expectNoSeriousA11yViolations(page);
    // The explanation it links to fits too.
    await main(page)
      .getByRole('link', { name: /reviewed on/i })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'How reports are reviewed' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
  } finally {
    await deleteMember(server, reporter);
  }
});

test('the review screen with masking works on a phone', async ({ page, server, member }) => {
  test.slow();
  const reporter = await createMember(server);
  try {
    const { error } = await adminClient(server)
      .from('user_roles')
      .insert({ user_id: member.id, role: 'admin' });
    expect(error).toBeNull();
    const name = `Phoebe Phonereview ${suffix()}`;
    const phone = `(253) 555-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const id = await fileReport(server, reporter, name, {
      incident_details: `${LONG_INCIDENT} He said to text him at ${phone}.`,
    });
    await openSignedIn(page, server, member, `/admin/reports/${id}`);
    const claim = main(page).getByRole('button', { name: 'Claim for review' });
    await expectUsable(claim);
    await claim.click();
    const proposals = main(page).getByRole('list', { name: 'Proposed masks' });
    await expect(proposals).toContainText(phone);
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    const keep = proposals.getByRole('button', { name: `Keep masked: ${phone}` });
    await expectUsable(keep);
    await expectUsable(proposals.getByRole('button', { name: `Unmask: ${phone}` }));
    await keep.click();
    // The contact details' number is proposed too (decision 240).
    await proposals.getByRole('button', { name: 'Keep masked: +1 253 555 0199' }).click();
    await expect(main(page).getByTestId('no-proposals')).toBeVisible();
    await expect(main(page).getByRole('list', { name: 'Decided masks' })).toContainText('+1 253 555 0199');

    // A span of the contact details, masked with the form: the handle after "Call +1 253 555 0199 or ".
    const form = main(page).getByRole('form', { name: 'Mask a span' });
    await expectUsable(form.getByLabel('Field'));
    await form.getByLabel('Field').selectOption({ label: 'Contact details' });
    await expectUsable(form.getByLabel('First character'));
    await form.getByLabel('First character').fill('25');
    await expectUsable(form.getByLabel('Last character'));
    await form.getByLabel('Last character').fill('56');
    const maskButton = form.getByRole('button', { name: 'Mask these characters' });
    await expectUsable(maskButton);
    await maskButton.click();
    await expect(main(page).getByRole('list', { name: 'Decided masks' })).toContainText(
      '@pocketgreens_wholesale_official',
    );
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    // The publish preview fits the phone and shows the masked text.
    await main(page)
      .getByLabel('Public summary')
      .fill('A member reports paying for two ounces that never came.');
    const publish = main(page).getByRole('button', { name: 'Publish' });
    await expectUsable(publish);
    await publish.click();
    const preview = page.getByRole('alertdialog', { name: 'Publish this report?' });
    const readersView = preview.getByRole('region', { name: 'What readers will see' });
    await expect(readersView).toContainText('Call [removed by the reviewers] or [removed by the reviewers]');
    await expectNoHorizontalOverflow(page);
    await expectUsable(preview.getByRole('button', { name: 'Publish', exact: true }));
    await expectUsable(preview.getByRole('button', { name: 'Cancel' }));
    await expectNoSeriousA11yViolations(page);
    await preview.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(main(page).getByText('Published', { exact: true })).toBeVisible();
  } finally {
    await deleteMember(server, reporter);
  }
});

test('the report form fits a phone and is sent from it', async ({ page, server, member }) => {
  await openSignedIn(page, server, member);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'HighGrade' }).getByRole('button', { name: 'Submit a Tip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit a Scammer Report' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('All reports are reviewed before publication.');
  const name = `Dorian "Top Shelf" Phoneform ${suffix()}`;
  for (const [label, value] of [
    [/^Scammer Name/, name],
    [/^Scammer Description/, 'Sells flower online that never ships.'],
    [/^Incident Details/, LONG_INCIDENT],
  ] as const) {
    const box = dialog.getByRole('textbox', { name: label });
    await expectUsable(box);
    await box.fill(value);
  }
  const confirm = dialog.getByRole('checkbox', { name: /I confirm this report is true/ });
  await confirm.scrollIntoViewIfNeeded();
  await confirm.check();
  await expect(confirm).toBeChecked();
  // Nothing in the dialog is wider than it, and the page behind does not widen.
  const inner = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(inner, 'dialog overflow in px').toBeLessThanOrEqual(0);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page, '[role="dialog"]');
  const submit = dialog.getByRole('button', { name: 'Submit Report' });
  await expectUsable(submit);
  await submit.click();
  await expect(dialog).toBeHidden();
  const { data } = await adminClient(server)
    .from('scammer_reports')
    .select('scammer_name, status')
    .eq('reporter_user_id', member.id);
  expect(data).toEqual([{ scammer_name: name, status: 'submitted' }]);
});
