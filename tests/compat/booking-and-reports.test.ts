// @databases: both — the server-side guards are SQL constraints and triggers.
/**
 * Issue 9's server-side guards, through supabase-js only (anon key, members' sessions), as a browser
 * that skips the web app's checks would call the API: hostile lengths, negative or malformed amounts,
 * future incident dates, past booking dates, someone else's id, HTML and script text, a claimed
 * status, and the rate limits of product §limits per user and per client address. Each is refused by the
 * database with a PostgREST error — a code and a 4xx status, never a 500.
 *
 * The server trusts X-Forwarded-For from loopback (TRUST_PROXY), so each client below is a client
 * address of its own and per-address limits are counted per test.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: ServerProcess;
let service: SupabaseClient;

const DAY = 86_400_000;
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

let addressCounter = 0;
/** A fresh client address for each client: per-address limits never leak between tests. */
function nextAddress(): string {
  addressCounter += 1;
  return `10.9.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function clientAt(address: string): SupabaseClient {
  return anonClient(server, { headers: { 'x-forwarded-for': address } });
}

type Member = SignedInUser;

function memberAt(address: string = nextAddress()): Promise<Member> {
  return signedInUser(server, { headers: { 'x-forwarded-for': address } });
}

interface Answer {
  error: { code: string; message: string } | null;
  status: number;
}
/** Refused with this code and HTTP status (a client error, never a server error). */
function expectRefused(answer: Answer, code: string, status: number, label = ''): void {
  expect(
    { code: answer.error?.code, status: answer.status },
    `${label} ${answer.error?.message ?? ''}`,
  ).toEqual({
    code,
    status,
  });
}
function expectOk(answer: Answer, label = ''): void {
  expect({ error: answer.error, status: answer.status }, label).toEqual({ error: null, status: 201 });
}

const report = (reporter: string) => ({
  // The reporter's confirmation (decision 200).
  truth_confirmed_at: new Date().toISOString(),
  scammer_name: 'Shady Sam',
  scammer_description: 'Sells fake lab results.',
  incident_details: 'Paid 300 dollars for an ounce that never arrived; phone off since.',
  location: 'Denver, CO',
  business_name: 'Sam Supplies LLC',
  contact_info: 'sam at shady.example, +1 555 0100',
  amount_scammed: 300.5,
  date_of_incident: isoDate(-3),
  reporter_user_id: reporter,
});

const booking = (userId: string | null) => ({
  full_name: 'Brand Owner',
  email: 'brand@example.com',
  phone: '+1 (555) 010-0200',
  company_name: 'Sunset Farms',
  product_name: 'Sunset Gummies',
  product_description: 'Fruit gummies, 10 mg each.',
  product_category: 'Edibles',
  booking_date: isoDate(5),
  booking_time: '14:30',
  special_requests: 'Morning preferred.',
  user_id: userId,
});

beforeAll(async () => {
  server = await startServerProcess({ TRUST_PROXY: '127.0.0.1' });
  service = adminClient(server);
});
afterAll(() => server?.close());

async function reportCount(reporter: string): Promise<number | null> {
  const { count } = await service
    .from('scammer_reports')
    .select('*', { count: 'exact', head: true })
    .eq('reporter_user_id', reporter);
  return count;
}

describe('scammer_reports: what the dialog would never send is refused', () => {
  it('refuses hostile lengths of every text field (23514, 400), trimmed as product §field-rules counts them', async () => {
    const member = await memberAt();
    const cases: Array<[string, string]> = [
      ['scammer_name', 'S'],
      ['scammer_name', `  S${' '.repeat(50)}`],
      ['scammer_name', 'S'.repeat(101)],
      ['scammer_name', 'S'.repeat(100_000)],
      ['scammer_description', 'x'.repeat(9)],
      ['scammer_description', 'x'.repeat(1001)],
      ['incident_details', 'x'.repeat(19)],
      ['incident_details', 'x'.repeat(2001)],
      ['location', 'X'],
      ['location', 'X'.repeat(201)],
      ['business_name', 'B'],
      ['business_name', 'B'.repeat(201)],
      ['contact_info', '1234'],
      ['contact_info', '1'.repeat(501)],
      ['scammer_name', ''],
    ];
    for (const [field, value] of cases) {
      const answer = await member.client
        .from('scammer_reports')
        .insert({ ...report(member.id), [field]: value });
      expectRefused(answer, '23514', 400, `${field} of ${value.length}`);
    }
    // Required fields cannot be left out either (23502, 400).
    const { scammer_name: _name, ...nameless } = report(member.id);
    expectRefused(await member.client.from('scammer_reports').insert(nameless), '23502', 400, 'no name');
    expect(await reportCount(member.id)).toBe(0);
  });

  it('refuses negative, malformed and absurd amounts', async () => {
    const member = await memberAt();
    for (const amount of [-0.01, -100, 1e12, 1.234]) {
      const answer = await member.client
        .from('scammer_reports')
        .insert({ ...report(member.id), amount_scammed: amount });
      expectRefused(answer, '23514', 400, String(amount));
    }
    for (const amount of ['NaN', 'Infinity', '-Infinity']) {
      const answer = await member.client
        .from('scammer_reports')
        .insert({ ...report(member.id), amount_scammed: amount });
      expect(answer.status, amount).toBe(400);
      expect(['23514', '22P02', '22003'], `${amount}: ${answer.error?.message}`).toContain(
        answer.error?.code,
      );
    }
    const text = await member.client
      .from('scammer_reports')
      .insert({ ...report(member.id), amount_scammed: 'lots' });
    expectRefused(text, '22P02', 400, 'text amount');
    expect(await reportCount(member.id)).toBe(0);
  });

  it('refuses incident dates in the future, with the product §report-dialog text', async () => {
    const member = await memberAt();
    for (const date of [isoDate(3), isoDate(400), '2999-12-31']) {
      const answer = await member.client
        .from('scammer_reports')
        .insert({ ...report(member.id), date_of_incident: date });
      expectRefused(answer, '23514', 400, date);
      expect(answer.error?.message).toBe('Incident date cannot be in the future.');
    }
    const impossible = await member.client
      .from('scammer_reports')
      .insert({ ...report(member.id), date_of_incident: '2026-02-30' });
    expect(impossible.status).toBe(400);
    expect(impossible.error?.code).toMatch(/^22/);
    expect(await reportCount(member.id)).toBe(0);
  });

  it("refuses another member's reporter id (403) and visitors (401); leaving it out files it as yourself", async () => {
    const member = await memberAt();
    const other = await memberAt();
    expectRefused(await member.client.from('scammer_reports').insert(report(other.id)), '42501', 403);
    const { reporter_user_id: _reporter, ...anonymous } = report(member.id);
    expectRefused(await clientAt(nextAddress()).from('scammer_reports').insert(anonymous), '42501', 401);
    expect(await reportCount(other.id)).toBe(0);
    expectOk(await member.client.from('scammer_reports').insert(anonymous));
    expect(await reportCount(member.id)).toBe(1);
  });

  it('refuses HTML, script and every character the text cleaning removes, in every text field', async () => {
    const member = await memberAt();
    const hostile = [
      '<script>alert(1)</script> here',
      '<img src=x onerror=alert(1)>',
      'javascript:alert(document.cookie)',
      'see DATA:text/html;base64,PHNjcmlwdD4=',
      'VBScript:MsgBox(1) again',
      "Tom's shop on the corner",
      'He said "trust me" twice',
      'Smith &amp; Sons dispensary',
      'Smith & Sons dispensary',
      'use `rm -rf` on him',
    ];
    // Names are not cleaned: they keep every character typed (decision 200), checked below.
    const fields = ['scammer_description', 'incident_details', 'location', 'contact_info'];
    for (const field of fields) {
      for (const text of hostile) {
        // Long enough for every field's minimum, short enough for every maximum.
        const value = `${text} ${'x'.repeat(20)}`.slice(0, 90);
        const answer = await member.client
          .from('scammer_reports')
          .insert({ ...report(member.id), [field]: value });
        expectRefused(answer, '23514', 400, `${field}: ${value}`);
      }
    }
    expect(await reportCount(member.id)).toBe(0);
    // Names are stored as typed, quotes and markup included (shown as text, never rendered).
    const name = 'Dave "Top Shelf" Miller <b>&amp;</b> `x`';
    const kept = await member.client
      .from('scammer_reports')
      .insert({ ...report(member.id), scammer_name: name, business_name: "O'Brien & Sons" })
      .select('scammer_name, business_name')
      .single();
    expect(kept.data).toEqual({ scammer_name: name, business_name: "O'Brien & Sons" });
    expect(await reportCount(member.id)).toBe(1);
  });

  it('refuses any status but submitted, and members cannot change or delete a report afterwards', async () => {
    const member = await memberAt();
    for (const status of ['under_review', 'published', 'rejected']) {
      const answer = await member.client.from('scammer_reports').insert({ ...report(member.id), status });
      expectRefused(answer, '42501', 403, status);
    }
    const invented = await member.client
      .from('scammer_reports')
      .insert({ ...report(member.id), status: 'approved' });
    expect(invented.status).toBeGreaterThanOrEqual(400);
    expect(invented.status).toBeLessThan(500);
    expect(['42501', '23514']).toContain(invented.error?.code);

    expectOk(await member.client.from('scammer_reports').insert(report(member.id)));
    // No update or delete policy for reporters: nothing matches, nothing changes.
    const update = await member.client
      .from('scammer_reports')
      .update({ status: 'published' })
      .eq('reporter_user_id', member.id)
      .select();
    expect(update.error).toBeNull();
    expect(update.data).toEqual([]);
    const removal = await member.client
      .from('scammer_reports')
      .delete()
      .eq('reporter_user_id', member.id)
      .select();
    expect(removal.data).toEqual([]);
    const { data } = await service.from('scammer_reports').select('status').eq('reporter_user_id', member.id);
    expect(data).toEqual([{ status: 'submitted' }]);
  });

  it('allows 3 reports per 15 minutes per member: the 4th is refused with 429 "rate limit"', async () => {
    const member = await memberAt();
    for (let i = 0; i < 3; i++)
      expectOk(await member.client.from('scammer_reports').insert(report(member.id)), `#${i + 1}`);
    const fourth = await member.client.from('scammer_reports').insert(report(member.id));
    expectRefused(fourth, 'PT429', 429);
    expect(fourth.error?.message).toContain('rate limit');
    // The report flow's check (product §rpc) counts the same way: three yes, then no.
    const check = () =>
      member.client.rpc('global_rate_limit_check', {
        action_type_param: 'scammer_report',
        max_attempts: 3,
        time_window_minutes: 15,
        max_ip_attempts: 10,
      });
    for (let i = 0; i < 3; i++) expect(await check()).toMatchObject({ error: null, data: true });
    expect(await check()).toMatchObject({ error: null, data: false });
    expect(await reportCount(member.id)).toBe(3);
  });

  it('allows 10 reports per 15 minutes per client address, across accounts', async () => {
    const address = nextAddress();
    const members = await Promise.all([
      memberAt(address),
      memberAt(address),
      memberAt(address),
      memberAt(address),
    ]);
    let saved = 0;
    for (const member of members.slice(0, 3)) {
      for (let i = 0; i < 3; i++) {
        expectOk(await member.client.from('scammer_reports').insert(report(member.id)));
        saved += 1;
      }
    }
    const fourthMember = members[3] as Member;
    expectOk(await fourthMember.client.from('scammer_reports').insert(report(fourthMember.id)));
    saved += 1;
    expect(saved).toBe(10);
    // The fourth account has used one of its three, but the address has used all ten.
    const eleventh = await fourthMember.client.from('scammer_reports').insert(report(fourthMember.id));
    expectRefused(eleventh, 'PT429', 429);
    expect(eleventh.error?.message).toContain('rate limit');
    // From another address the same account may go on.
    const elsewhere = clientAt(nextAddress());
    const { data: session } = await fourthMember.client.auth.getSession();
    await elsewhere.auth.setSession({
      access_token: session.session?.access_token ?? '',
      refresh_token: session.session?.refresh_token ?? '',
    });
    expectOk(await elsewhere.from('scammer_reports').insert(report(fourthMember.id)));
  });

  it('checks the rate-limit procedure’s arguments instead of failing (400, not 500)', async () => {
    const member = await memberAt();
    for (const args of [
      { action_type_param: 'scammer_report', max_attempts: 0, time_window_minutes: 15 },
      { action_type_param: 'scammer_report', max_attempts: 3, time_window_minutes: -1 },
      { action_type_param: "x'; drop table x; --", max_attempts: 3, time_window_minutes: 15 },
      { action_type_param: 'scammer_report', max_attempts: 3, time_window_minutes: 15, max_ip_attempts: 0 },
    ]) {
      const answer = await member.client.rpc('global_rate_limit_check', args);
      expect(answer.status, JSON.stringify(args)).toBe(400);
      expect(answer.error?.code).toBe('22023');
    }
  });
});

describe('bookings: what the booking page would never send is refused', () => {
  it('refuses past dates, dates more than a year ahead and malformed dates (23514, 400)', async () => {
    const visitor = clientAt(nextAddress());
    for (const date of [isoDate(-2), isoDate(-400), '2000-01-01', isoDate(400)]) {
      const answer = await visitor.from('bookings').insert({ ...booking(null), booking_date: date });
      expectRefused(answer, '23514', 400, date);
    }
    const past = await visitor.from('bookings').insert({ ...booking(null), booking_date: isoDate(-5) });
    expect(past.error?.message).toBe('A booking date cannot be in the past.');
    for (const date of ['2026-13-01', '2027-02-30', '21/11/2027', 'tomorrow', '']) {
      const answer = await visitor.from('bookings').insert({ ...booking(null), booking_date: date });
      expectRefused(answer, '23514', 400, date);
    }
  });

  it('refuses times outside the 17 half-hour slots and categories outside the eight', async () => {
    const visitor = clientAt(nextAddress());
    for (const time of ['08:30', '17:30', '9:00', '12:15', '12:00:00', '']) {
      expectRefused(
        await visitor.from('bookings').insert({ ...booking(null), booking_time: time }),
        '23514',
        400,
        time,
      );
    }
    for (const category of ['flower', 'Snacks', '', 'Flower ']) {
      const answer = await visitor.from('bookings').insert({ ...booking(null), product_category: category });
      expectRefused(answer, '23514', 400, category);
    }
  });

  it('refuses hostile lengths, bad emails and phones, HTML and script text', async () => {
    const visitor = clientAt(nextAddress());
    const cases: Array<[string, string]> = [
      ['full_name', 'B'],
      ['full_name', 'B'.repeat(101)],
      ['full_name', '<b>Brand</b> Owner'],
      ['full_name', 'Owner javascript:alert(1)'],
      ['email', 'brand@'],
      ['email', 'brand example.com'],
      ['email', `${'b'.repeat(250)}@example.com`],
      ['phone', '555-1234'],
      ['phone', 'call me maybe'],
      ['phone', '----------'],
      ['company_name', 'C'.repeat(201)],
      ['company_name', '<script>alert(1)</script>'],
      ['product_name', ''],
      ['product_name', 'P'.repeat(201)],
      ['product_name', 'Gummies <script src=//evil.example></script>'],
      ['product_description', 'd'.repeat(2001)],
      ['product_description', '<img src=x onerror=alert(1)>'],
      ['special_requests', 's'.repeat(2001)],
      ['special_requests', 'click <a href="javascript:alert(1)">here</a>'],
      ['special_requests', '<body onload=alert(1)>'],
    ];
    for (const [field, value] of cases) {
      const answer = await visitor.from('bookings').insert({ ...booking(null), [field]: value });
      expectRefused(answer, '23514', 400, `${field}: ${value.slice(0, 40)}`);
    }
  });

  it("refuses a booking in someone else's name: 401 for a visitor, 403 for a member", async () => {
    const member = await memberAt();
    const other = await memberAt();
    expectRefused(await clientAt(nextAddress()).from('bookings').insert(booking(other.id)), '42501', 401);
    expectRefused(await member.client.from('bookings').insert(booking(other.id)), '42501', 403);
    const { count } = await service
      .from('bookings')
      .select('*', { count: 'exact', head: true })
      .eq('user_id', other.id);
    expect(count).toBe(0);
  });

  it('limits anonymous booking per client address: 20 an hour, then 429 "rate limit"', async () => {
    const visitor = clientAt(nextAddress());
    for (let i = 0; i < 20; i++) expectOk(await visitor.from('bookings').insert(booking(null)), `#${i + 1}`);
    const over = await visitor.from('bookings').insert(booking(null));
    expectRefused(over, 'PT429', 429);
    expect(over.error?.message).toContain('rate limit');
    // Another visitor is not affected.
    expectOk(await clientAt(nextAddress()).from('bookings').insert(booking(null)));
  });

  it('limits a member to 10 bookings an hour, whatever the address', async () => {
    const member = await memberAt();
    for (let i = 0; i < 10; i++)
      expectOk(await member.client.from('bookings').insert(booking(member.id)), `#${i + 1}`);
    expectRefused(await member.client.from('bookings').insert(booking(member.id)), 'PT429', 429);
    // Booking "anonymously" while signed in still counts against the member.
    expectRefused(await member.client.from('bookings').insert(booking(null)), 'PT429', 429);
  });
});
