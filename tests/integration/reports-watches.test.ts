// @databases: both — watch alerts are database triggers and RLS.
/**
 * Issue 19 "Watch alerts" (decision 125): a member with access watches a name, business, phone, email or
 * domain; publishing a matching report notifies them and queues a mail — never through a redacted field,
 * never for members without access; watches are private to their owner.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { reviewSteps } from './report-review-support.ts';

let server: TestServer;
let service: SupabaseClient;
let admin: SignedInUser;
let reporter: SignedInUser;
let watcher: SignedInUser;
let lapsed: SignedInUser;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: uniqueEmail('admin', 'watch.example') });
  reporter = await signedInUser(server, { email: uniqueEmail('reporter', 'watch.example') });
  watcher = await signedInUser(server, { email: uniqueEmail('watcher', 'watch.example') });
  lapsed = await signedInUser(server, { email: uniqueEmail('lapsed', 'watch.example') });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
});
afterAll(() => server?.close());

async function publish(fields: Record<string, unknown>, redacted: string[] = []): Promise<string> {
  const { data, error } = await service
    .from('scammer_reports')
    .insert({
      scammer_name: 'Someone Unrelated',
      scammer_description: 'Sells fake lab results and disappears.',
      incident_details: 'Paid upfront for two ounces; the seller stopped answering after payment.',
      reporter_user_id: reporter.id,
      ...fields,
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  const id = data.id as string;
  await reviewSteps(admin.client, id, [
    { status: 'under_review' },
    { redacted_fields: redacted },
    { status: 'published', public_summary: 'A member reports paying for an order that never came.' },
  ]);
  return id;
}

async function alertsFor(user: SignedInUser, reportId: string) {
  const { rows } = await server.db.query<{ n: number }>(
    `select count(*)::int as n from public.notifications where user_id = $1 and kind = 'scammer_watch.match' and link = $2`,
    [user.id, `/scammer-database/${reportId}`],
  );
  const mails = await server.db.query<{ n: number }>(
    `select count(*)::int as n from private.mail_queue where to_email = $1 and type = 'scammer_watch_alert' and link = $2`,
    [user.email, `/scammer-database/${reportId}`],
  );
  return { notifications: rows[0]?.n, mails: mails.rows[0]?.n };
}

describe('watches', () => {
  it('are normalised, private, and refused to members without access or with a bad value', async () => {
    const phone = await watcher.client
      .from('scammer_watches')
      .insert({ kind: 'phone', value: '(415) 555-0123' })
      .select('kind, value, normalised')
      .single();
    expect(phone.data).toEqual({ kind: 'phone', value: '(415) 555-0123', normalised: '+14155550123' });
    const bad = await watcher.client.from('scammer_watches').insert({ kind: 'phone', value: '555-01' });
    expect(bad.error?.code).toBe('23514');
    const markup = await watcher.client
      .from('scammer_watches')
      .insert({ kind: 'name', value: '<script>x</script>' });
    expect(markup.error?.code).toBe('23514');
    const forOther = await watcher.client
      .from('scammer_watches')
      .insert({ kind: 'name', value: 'Somebody', user_id: reporter.id });
    expect(forOther.error?.code).toBe('42501');

    await service
      .from('profiles')
      .update({ trial_ends_at: new Date(Date.now() - 86_400_000).toISOString() })
      .eq('user_id', lapsed.id);
    const noAccess = await lapsed.client.from('scammer_watches').insert({ kind: 'name', value: 'Somebody' });
    expect(noAccess.error?.code).toBe('42501');

    const others = await reporter.client.from('scammer_watches').select('*').eq('user_id', watcher.id);
    expect(others.data).toEqual([]);
  });

  it('alert on publish by name (typo-tolerant), business, phone, email and domain — not through redacted fields', async () => {
    for (const [kind, value] of [
      ['name', 'Bartholomew Quickfinger'],
      ['business', 'Emerald Coast Supply'],
      ['email', 'Quick.Deals+x@gmail.com'],
      ['domain', 'https://www.quickdeals.co.uk/shop'],
    ]) {
      const answer = await watcher.client.from('scammer_watches').insert({ kind, value });
      expect(answer.error, `${kind}`).toBeNull();
    }
    const byName = await publish({ scammer_name: 'Bartholomew Quickfingers' });
    expect(await alertsFor(watcher, byName)).toEqual({ notifications: 1, mails: 1 });
    const byBusiness = await publish({ business_name: 'Emerald Coast Supply Co' });
    expect(await alertsFor(watcher, byBusiness)).toEqual({ notifications: 1, mails: 1 });
    const byPhone = await publish({ contact_info: 'call 415.555.0123' });
    expect(await alertsFor(watcher, byPhone)).toEqual({ notifications: 1, mails: 1 });
    const byEmail = await publish({ contact_info: 'quickdeals@googlemail.com' });
    expect(await alertsFor(watcher, byEmail)).toEqual({ notifications: 1, mails: 1 });
    const byDomain = await publish({ contact_info: 'see shop.quickdeals.co.uk' });
    expect(await alertsFor(watcher, byDomain)).toEqual({ notifications: 1, mails: 1 });

    const redacted = await publish({ contact_info: 'call 415-555-0123' }, ['contact_info']);
    expect(await alertsFor(watcher, redacted)).toEqual({ notifications: 0, mails: 0 });
    const unrelated = await publish({ scammer_name: 'Completely Different' });
    expect(await alertsFor(watcher, unrelated)).toEqual({ notifications: 0, mails: 0 });
  });

  it('alert nobody whose access has ended', async () => {
    await service
      .from('scammer_watches')
      .insert({ user_id: lapsed.id, kind: 'name', value: 'Ignatius Lapsewatch' });
    const id = await publish({ scammer_name: 'Ignatius Lapsewatch' });
    expect(await alertsFor(lapsed, id)).toEqual({ notifications: 0, mails: 0 });
  });

  it('are removed by their owner only', async () => {
    const { data } = await watcher.client.from('scammer_watches').select('id').limit(1).single();
    const byOther = await reporter.client.from('scammer_watches').delete().eq('id', data?.id).select();
    expect(byOther.data).toEqual([]);
    const byOwner = await watcher.client.from('scammer_watches').delete().eq('id', data?.id).select();
    expect(byOwner.data).toHaveLength(1);
  });
  it('are capped at 20 a member (the guard reads the caller from the token)', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ kind: 'name', value: `Capped Watch ${i} Person` }));
    const first = await admin.client.from('scammer_watches').insert(rows);
    expect(first.error).toBeNull();
    const over = await admin.client.from('scammer_watches').insert({ kind: 'name', value: 'One Too Many' });
    expect(over.error?.message).toBe('You can watch up to 20 names, businesses and contact details.');
    await admin.client.from('scammer_watches').delete().like('value', 'Capped Watch %');
  });
});
