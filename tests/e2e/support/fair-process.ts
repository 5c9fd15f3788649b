import { expect, type Page } from '@playwright/test';
import { adminClient, type Member, type ServerInfo } from './api.ts';

/**
 * The steps of issue 32's fair process the browser specs share (scammer-evidence-reply.spec.ts on a
 * desktop, scammer-fair-process.mobile.spec.ts on a phone): a brand's approved representative without
 * access of their own, a published report about the brand, a takedown request sent from the reply
 * page, and the reviewers' acceptance and republication. What is arranged goes through the service key;
 * the review rules themselves are the SQL tests'.
 */

export const REPORT_SUMMARY = 'A member reports paying for an order that never came.';

/** The member becomes the approved representative of a new brand; their trial is over (no access). */
export async function representativeOfNewBrand(
  server: ServerInfo,
  member: Member,
  label: string,
): Promise<{ id: string; slug: string }> {
  const service = adminClient(server);
  const t = Math.random().toString(36).slice(2, 7);
  const slug = `${label.toLowerCase().replaceAll(' ', '-')}-${t}`;
  const { data: brand, error } = await service
    .from('brands')
    .insert({ name: `${label} ${t}`, slug })
    .select('id, slug')
    .single();
  expect(error).toBeNull();
  const claim = await service
    .from('brand_claims')
    .insert({ brand_id: brand?.id, user_id: member.id, role_title: 'Owner' })
    .select('id')
    .single();
  expect(claim.error).toBeNull();
  expect(
    (await service.from('brand_claims').update({ status: 'approved' }).eq('id', claim.data?.id)).error,
  ).toBeNull();
  const ended = await service
    .from('profiles')
    .update({ trial_ends_at: new Date(Date.now() - 86_400_000).toISOString() })
    .eq('user_id', member.id);
  expect(ended.error).toBeNull();
  return { id: brand?.id as string, slug: brand?.slug as string };
}

/** A report of `reporter`'s, waiting for review unless `extra` says otherwise. */
export async function fileReport(
  server: ServerInfo,
  reporter: Member,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { data, error } = await adminClient(server)
    .from('scammer_reports')
    .insert({
      scammer_name: name,
      scammer_description: 'Sells flower online that never ships.',
      incident_details: 'Paid upfront for two ounces by bank transfer; nothing ever arrived.',
      business_name: 'Fair Hearing Farms',
      amount_scammed: 300,
      reporter_user_id: reporter.id,
      ...extra,
    })
    .select('id')
    .single();
  expect(error).toBeNull();
  return data?.id as string;
}

/** A published report of another member's, linked to a brand when given (decisions 201–202). */
export function publishedReport(server: ServerInfo, reporter: Member, name: string, brandId?: string) {
  return fileReport(server, reporter, name, {
    brand_id: brandId ?? null,
    status: 'published',
    public_summary: REPORT_SUMMARY,
    reviewed_at: new Date().toISOString(),
  });
}

/** On the reply page: a takedown request as the brand's representative, sent and waiting. */
export async function sendTakedownRequest(page: Page): Promise<void> {
  const main = page.getByRole('main');
  await main.getByRole('radio', { name: /A takedown request/ }).check();
  await main.getByLabel('How are you named in the report?').selectOption('representative');
  await main
    .getByRole('textbox', { name: /Your message/ })
    .fill('The order was refunded in full; the bank statement shows it.');
  await main.getByRole('button', { name: 'Send for review' }).click();
  await expect(main.getByText('Waiting for review')).toBeVisible();
}

/** The reviewers accept the report's takedown request (it goes back to review), then republish it. */
export async function acceptTakedownAndRepublish(server: ServerInfo, reportId: string): Promise<void> {
  const service = adminClient(server);
  const request = await service
    .from('scammer_report_replies')
    .select('id')
    .eq('report_id', reportId)
    .single();
  expect(
    (await service.from('scammer_report_replies').update({ status: 'accepted' }).eq('id', request.data?.id))
      .error,
  ).toBeNull();
  expect(
    (await service.from('scammer_reports').update({ status: 'published' }).eq('id', reportId)).error,
  ).toBeNull();
}
