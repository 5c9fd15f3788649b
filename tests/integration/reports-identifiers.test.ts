// @databases: both — contact normalisation and linking are SQL.
/**
 * Issue 19 "Repeat offenders" (decision 124): contact details normalised with real-world formats —
 * US/CA phones with and without the country code, international numbers, mixed-case emails with
 * Gmail's dots and +tags, URLs with paths and www., handles — and the linked reports readers see.
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

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: uniqueEmail('admin', 'ids.example') });
  reporter = await signedInUser(server, { email: uniqueEmail('reporter', 'ids.example') });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
});
afterAll(() => server?.close());

async function one(fn: string, value: string): Promise<string | null> {
  const { rows } = await server.db.query<{ v: string | null }>(`select private.${fn}($1) as v`, [value]);
  return rows[0]?.v ?? null;
}

describe('normalisation', () => {
  it('phones to E.164 (US/Canada by default)', async () => {
    const cases: [string, string | null][] = [
      ['(303) 555-0147', '+13035550147'],
      ['303.555.0147', '+13035550147'],
      ['303 555 0147', '+13035550147'],
      ['1-303-555-0147', '+13035550147'],
      ['+1 (303) 555-0147', '+13035550147'],
      ['+1 303-555-0147 ext. 12', '+13035550147'],
      ['416-555-0199', '+14165550199'],
      ['+44 20 7946 0958', '+442079460958'],
      ['0044 20 7946 0958', '+442079460958'],
      ['+61 2 9374 4000', '+61293744000'],
      ['+49 (0)30 1234567', '+490301234567'],
      ['555-0147', null],
      ['123-456-7890', null],
      ['call me', null],
    ];
    for (const [input, expected] of cases) expect(await one('normalise_phone', input), input).toBe(expected);
  });

  it('emails lower-cased, with Gmail dots and +tags and other providers’ +tags', async () => {
    const cases: [string, string | null][] = [
      ['Green.Deals+weed@Gmail.com', 'greendeals@gmail.com'],
      ['greendeals@googlemail.com', 'greendeals@gmail.com'],
      ['Sam.Seller+promo@Outlook.com', 'sam.seller@outlook.com'],
      ['Sam.Seller@Example.COM', 'sam.seller@example.com'],
      ['mailto:Info@Shop.co.uk', 'info@shop.co.uk'],
      ['not an email', null],
    ];
    for (const [input, expected] of cases) expect(await one('normalise_email', input), input).toBe(expected);
  });

  it('websites to their registrable domain', async () => {
    const cases: [string, string | null][] = [
      ['https://www.GreenDeals.com/shop?id=4', 'greendeals.com'],
      ['http://shop.greendeals.com:8080/', 'greendeals.com'],
      ['greendeals.com', 'greendeals.com'],
      ['www.greendeals.co.uk/about', 'greendeals.co.uk'],
      ['https://store.example.com.au', 'example.com.au'],
      ['192.168.0.1', null],
      ['nodots', null],
    ];
    for (const [input, expected] of cases) expect(await one('normalise_domain', input), input).toBe(expected);
  });

  it('handles without @ and case', async () => {
    expect(await one('normalise_handle', '@GreenDeals_420')).toBe('greendeals_420');
    expect(await one('normalise_handle', 'greendeals')).toBe('greendeals');
    expect(await one('normalise_handle', '@x')).toBeNull();
  });

  it('finds every identifier in a free-text contact field', async () => {
    const { rows } = await server.db.query<{ kind: string; value: string }>(
      `select kind, value from private.extract_identifiers($1) order by kind, value`,
      [
        'Call (303) 555-0147 or +44 20 7946 0958, mail Green.Deals+x@Gmail.com, IG @GreenDeals, www.greendeals.co.uk/shop',
      ],
    );
    expect(rows).toEqual([
      { kind: 'domain', value: 'greendeals.co.uk' },
      { kind: 'email', value: 'greendeals@gmail.com' },
      { kind: 'handle', value: 'greendeals' },
      { kind: 'phone', value: '+13035550147' },
      { kind: 'phone', value: '+442079460958' },
    ]);
  });
});

describe('linked reports', () => {
  async function publish(name: string, contact: string, redacted: string[] = []): Promise<string> {
    const { data, error } = await service
      .from('scammer_reports')
      .insert({
        scammer_name: name,
        scammer_description: 'Sells fake lab results and disappears.',
        incident_details: 'Paid upfront for two ounces; the seller stopped answering after payment.',
        contact_info: contact,
        reporter_user_id: reporter.id,
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

  it('links published reports sharing a phone or email however written, with the identifier, never through redacted details', async () => {
    const first = await publish('Link Larry', 'Text 303.555.0188 or larry.deals@gmail.com');
    const second = await publish('Lawrence L', '+1 (303) 555-0188');
    const third = await publish('L. Deals', 'LarryDeals+shop@GMAIL.com');
    const hidden = await publish('Hidden Harry', '(303) 555-0188', ['contact_info']);

    const links = await reporter.client.rpc('linked_scammer_reports', { report_id: first });
    expect(links.error).toBeNull();
    const byId = new Map((links.data as { id: string; kind: string; value: string }[]).map((l) => [l.id, l]));
    expect(byId.get(second)).toMatchObject({ kind: 'phone', value: '+13035550188' });
    expect(byId.get(third)).toMatchObject({ kind: 'email', value: 'larrydeals@gmail.com' });
    expect(byId.has(hidden)).toBe(false);

    // Search by the phone written differently finds the reports, not the redacted one.
    const found = await reporter.client.rpc('search_scammer_reports', { query: '303-555-0188' });
    expect(found.error).toBeNull();
    const ids = (found.data as { id: string }[]).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([first, second]));
    expect(ids).not.toContain(hidden);
  });

  it('are for members with access only', async () => {
    const lapsed = await signedInUser(server, { email: uniqueEmail('lapsed', 'ids.example') });
    await service
      .from('profiles')
      .update({ trial_ends_at: new Date(Date.now() - 86_400_000).toISOString() })
      .eq('user_id', lapsed.id);
    const answer = await lapsed.client.rpc('linked_scammer_reports', {
      report_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(answer.error?.code).toBe('42501');
  });
});

describe('reporters know the rules (decision 200)', () => {
  const letters = () =>
    Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  const filing = (overrides: Record<string, unknown> = {}) => ({
    scammer_name: `Rule Randall ${letters()}`,
    scammer_description: 'Sells fake lab results and disappears.',
    incident_details: 'Paid upfront for two ounces; the seller stopped answering after payment.',
    reporter_user_id: reporter.id,
    truth_confirmed_at: '2000-01-01T00:00:00Z',
    ...overrides,
  });
  async function inVocabulary(word: string): Promise<boolean> {
    const { rows } = await server.db.query<{ found: boolean; completes: boolean }>(
      `select exists (select 1 from private.scammer_report_words where word = $1) as found,
         exists (select 1 from private.scammer_report_lexemes where lexeme = $1) as completes`,
      [word],
    );
    // The words that complete a typed word (decision 251) follow the same rules: a word of letters is
    // in both lists or in neither.
    expect(rows[0]?.completes, word).toBe(rows[0]?.found);
    return rows[0]?.found === true;
  }
  async function review(id: string, ...steps: Record<string, unknown>[]) {
    await reviewSteps(admin.client, id, steps);
  }
  const PUBLISH = [
    { status: 'under_review' },
    { status: 'published', public_summary: 'A member reports paying for an order that never came.' },
  ];

  it('a report needs the reporter’s confirmation, stored with it at the time the database received it', async () => {
    const { truth_confirmed_at: _confirmed, ...unconfirmed } = filing();
    const refused = await reporter.client.from('scammer_reports').insert(unconfirmed);
    expect(refused.error?.code).toBe('23514');
    expect(refused.error?.message).toBe('Confirm that your report is true to the best of your knowledge.');
    const nothing = await service
      .from('scammer_reports')
      .select('id')
      .eq('scammer_name', unconfirmed.scammer_name);
    expect(nothing.data).toEqual([]);

    const before = Date.now();
    const stored = await reporter.client
      .from('scammer_reports')
      .insert(filing())
      .select('id, truth_confirmed_at')
      .single();
    expect(stored.error).toBeNull();
    const confirmedAt = Date.parse(stored.data?.truth_confirmed_at as string);
    expect(confirmedAt).toBeGreaterThanOrEqual(before - 60_000);
    // Nobody changes it afterwards, admins included.
    const id = stored.data?.id as string;
    await admin.client.from('scammer_reports').update({ truth_confirmed_at: null }).eq('id', id);
    const after = await service.from('scammer_reports').select('truth_confirmed_at').eq('id', id).single();
    expect(Date.parse(after.data?.truth_confirmed_at as string)).toBe(confirmedAt);
  });

  it('names keep their quotes and every character typed; control characters are refused', async () => {
    const name = `Dave "Top Shelf" Miller <i>${letters()}</i>`;
    const stored = await reporter.client
      .from('scammer_reports')
      .insert(filing({ scammer_name: name, business_name: "O'Brien & Sons `Ltd`" }))
      .select('scammer_name, business_name')
      .single();
    expect(stored.data).toEqual({ scammer_name: name, business_name: "O'Brien & Sons `Ltd`" });
    const bell = await reporter.client
      .from('scammer_reports')
      .insert(filing({ scammer_name: `Dave\u0007Miller ${letters()}` }));
    expect(bell.error?.code).toBe('23514');
    expect(bell.error?.message).toMatch(/scammer_reports_scammer_name_characters/);
  });

  it('the search word list holds words of published reports only: rejected, withdrawn and deleted reports leave nothing', async () => {
    const [rejected, withdrawn, deleted, shared] = [letters(), letters(), letters(), letters()];
    const file = async (word: string, business?: string) => {
      const { data, error } = await service
        .from('scammer_reports')
        .insert(filing({ scammer_name: `Vocab ${word}`, business_name: business ?? null }))
        .select('id')
        .single();
      if (error) throw new Error(error.message);
      return data.id as string;
    };
    // Submitted: not in the list yet.
    const one = await file(rejected);
    expect(await inVocabulary(rejected)).toBe(false);
    await review(one, ...PUBLISH);
    expect(await inVocabulary(rejected)).toBe(true);
    // Taken down and rejected: gone.
    await review(one, { status: 'under_review' });
    expect(await inVocabulary(rejected)).toBe(false);
    await review(one, { status: 'rejected', rejection_reason: 'Names the wrong person.' });
    expect(await inVocabulary(rejected)).toBe(false);

    // A word another published report still has stays; the report's own word goes.
    const two = await file(withdrawn, `Shop ${shared}`);
    const three = await file(deleted, `Shop ${shared}`);
    await review(two, ...PUBLISH);
    await review(three, ...PUBLISH);
    expect(await inVocabulary(shared)).toBe(true);
    await review(two, { status: 'under_review' });
    expect([await inVocabulary(withdrawn), await inVocabulary(shared)]).toEqual([false, true]);
    // A redacted field's words go too.
    await review(
      three,
      { status: 'under_review' },
      { redacted_fields: ['business_name'] },
      { status: 'published' },
    );
    expect([await inVocabulary(deleted), await inVocabulary(shared)]).toEqual([true, false]);
    // Deleted: gone.
    const removed = await admin.client.from('scammer_reports').delete().eq('id', three);
    expect(removed.error).toBeNull();
    expect(await inVocabulary(deleted)).toBe(false);
  });
});
