// @databases: both — constraints and their SQLSTATEs.
/**
 * The database refuses what product §input-rules forbids even when a request skips the browser: hostile
 * lengths, negative amounts, future incident dates, past bookings, unknown categories and slots, markup in
 * text, another user's id. Every refusal carries the SQLSTATE the Data API maps to its answer (23514 check →
 * 400, 23502 not null → 400, 22P02/22007 bad value → 400, 42501 → 401/403, 23503/23505 → 409). Valid
 * rows are stored with exactly the values given.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, RequestScope } from '#server/db/driver.ts';
import { quoteIdent, quoteQualified } from '#server/db/sql.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import {
  type Attempt,
  attempt,
  createProducts,
  insertAccount,
  isoDate,
  makeAdmin,
  serviceRole,
  user,
} from './schema-support.ts';

const UUID_PRODUCT = randomUUID();
let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

const OWNER = '2a000000-0000-4000-8000-000000000001';
const OTHER = '2a000000-0000-4000-8000-000000000002';
const ADMIN = '2a000000-0000-4000-8000-000000000003';
const owner = () => user(OWNER, '203.0.113.80');
const admin = () => user(ADMIN, '203.0.113.81');

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  await insertAccount(db, { id: OWNER, email: 'owner@constraints.example' });
  await insertAccount(db, { id: OTHER, email: 'other@constraints.example' });
  await insertAccount(db, { id: ADMIN, email: 'admin@constraints.example' });
  await makeAdmin(db, ADMIN);
  await createProducts(db, ['blue-dream_3.5g', 'blue-dream', UUID_PRODUCT]);
});
afterAll(() => handle?.close());

type Row = Record<string, unknown>;

/**
 * Inserts (or, for a table keyed by user, updates the owner's row with) `values` as `scope`, then
 * reads the row back as the database owner in the same transaction; everything is rolled back.
 */
function write(
  table: string,
  scope: RequestScope,
  values: Row,
  mode: 'insert' | 'update',
  key: string,
): Promise<Attempt<Row>> {
  return attempt(db, scope, async (tx) => {
    const columns = Object.keys(values);
    const params = Object.values(values);
    if (mode === 'insert') {
      await tx.query(
        `insert into ${quoteQualified('public', table)} (${columns.map(quoteIdent).join(', ')})
         values (${columns.map((_, index) => `$${index + 1}`).join(', ')})`,
        params,
      );
    } else {
      await tx.query(
        `update ${quoteQualified('public', table)} set ${columns
          .map((column, index) => `${quoteIdent(column)} = $${index + 1}`)
          .join(', ')} where ${quoteIdent(key)} = $${columns.length + 1}`,
        [...params, OWNER],
      );
    }
    await tx.query('set local role none');
    const keyValue = mode === 'update' ? OWNER : values[key];
    const { rows } = await tx.query<Row>(
      `select * from ${quoteQualified('public', table)} where ${quoteIdent(key)} = $1`,
      [keyValue],
    );
    return rows[0] ?? {};
  });
}

const long = (length: number, char = 'a') => char.repeat(length);

interface Spec {
  table: string;
  scope: () => RequestScope;
  mode: 'insert' | 'update';
  key: string;
  /** A valid row, and how each of its values reads back (numeric and dates come back as text). */
  valid: () => Row;
  stored?: Row;
  /** Further valid rows (base with a patch). */
  alsoValid?: [string, Row][];
  /** Refused rows: what is wrong, the patch to the valid row, the SQLSTATE. */
  refused: [string, Row, string][];
}

const SPECS: Spec[] = [
  {
    table: 'profiles',
    scope: owner,
    mode: 'update',
    key: 'user_id',
    valid: () => ({
      username: 'Green_Thumb.42',
      full_name: "Zoë O'Neil",
      bio: 'Cultivator & taster. <3 Sativa.',
      avatar_url: 'https://cdn.example/user-uploads/2a/avatar-1.png',
      email: 'owner@constraints.example',
    }),
    alsoValid: [
      ['a one-letter derived username', { username: 'a' }],
      ['a null avatar', { avatar_url: null }],
    ],
    refused: [
      ['an empty username', { username: '' }, '23514'],
      ['a 65-character username', { username: long(65) }, '23514'],
      ['a username with spaces', { username: 'green thumb' }, '23514'],
      ['a username with markup', { username: '<script>' }, '23514'],
      ['a one-letter name', { full_name: 'Z' }, '23514'],
      ['a blank name', { full_name: '    ' }, '23514'],
      ['a 101-character name', { full_name: long(101) }, '23514'],
      ['HTML in the name', { full_name: '<b>Zoe</b>' }, '23514'],
      ['a script URL in the name', { full_name: 'javascript:alert(1)' }, '23514'],
      ['a 1001-character bio', { bio: long(1001) }, '23514'],
      ['a 100 000-character bio', { bio: long(100_000) }, '23514'],
      ['a script tag in the bio', { bio: '<script>alert(1)</script>' }, '23514'],
      ['an event handler in the bio', { bio: '<img src=x onerror=alert(1)>' }, '23514'],
      ['a javascript: avatar', { avatar_url: 'javascript:alert(1)' }, '23514'],
      ['a data: avatar', { avatar_url: 'data:image/png;base64,AAAA' }, '23514'],
      ['an ftp avatar', { avatar_url: 'ftp://files.example/a.png' }, '23514'],
      ['an avatar URL without host', { avatar_url: 'https://' }, '23514'],
      ["another account's email", { email: 'other@constraints.example' }, '42501'],
      ['a longer trial', { trial_ends_at: '2099-01-01T00:00:00Z' }, '42501'],
      ['another creation time', { created_at: '2000-01-01T00:00:00Z' }, '42501'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'privacy_settings',
    scope: owner,
    mode: 'insert',
    key: 'user_id',
    valid: () => ({
      user_id: OWNER,
      profile_visibility: 'friends',
      show_email: true,
      show_activity: false,
      allow_analytics: false,
      allow_marketing: true,
      data_processing_consent: true,
      auto_delete_inactive: true,
      inactive_period_months: 36,
    }),
    alsoValid: [12, 24, 60].map((months) => [`${months} months`, { inactive_period_months: months }]),
    refused: [
      ['an unknown visibility', { profile_visibility: 'everyone' }, '23514'],
      ['18 months', { inactive_period_months: 18 }, '23514'],
      ['a negative period', { inactive_period_months: -24 }, '23514'],
      ['a missing flag', { show_email: null }, '23502'],
      ['a period that is not a number', { inactive_period_months: 'forever' }, '22P02'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'admin_posts',
    scope: admin,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      title: 'Harvest festival',
      content: 'Join us on <b>Saturday</b> & bring friends.',
      author_id: ADMIN,
      featured: true,
      media_urls: [
        'https://cdn.example/community-review-media/admin-posts/a.jpg',
        'http://localhost:3000/b.png',
      ],
      status: 'published',
    }),
    alsoValid: [
      ['no media', { media_urls: [] }],
      ['a draft', { status: 'draft' }],
    ],
    refused: [
      ['an empty title', { title: '' }, '23514'],
      ['a 201-character title', { title: long(201) }, '23514'],
      ['a script tag in the content', { content: 'Hi <script>steal()</script>' }, '23514'],
      ['a vbscript: link', { content: '<a href="vbscript:msgbox(1)">x</a>' }, '23514'],
      ['a javascript: media URL', { media_urls: ['javascript:alert(1)'] }, '23514'],
      [
        '21 media URLs',
        { media_urls: Array.from({ length: 21 }, (_, i) => `https://cdn.example/${i}.jpg`) },
        '23514',
      ],
      ['a null media URL', { media_urls: [null] }, '23514'],
      ['an unknown status', { status: 'archived' }, '23514'],
      ['another author', { author_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'product_votes',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({ id: randomUUID(), user_id: OWNER, product_id: 'blue-dream_3.5g', vote_type: 'gas' }),
    alsoValid: [
      ['a pass', { vote_type: 'pass' }],
      ['a uuid product id', { product_id: UUID_PRODUCT }],
    ],
    refused: [
      ['an unknown vote', { vote_type: 'meh' }, '23514'],
      ['an upper-case vote', { vote_type: 'GAS' }, '23514'],
      ['an empty product id', { product_id: '' }, '23514'],
      ['SQL in the product id', { product_id: "x'; drop table public.product_votes; --" }, '23514'],
      ['a 200-character product id', { product_id: long(200) }, '23514'],
      ['a missing product id', { product_id: null }, '23502'],
      ["another user's id", { user_id: OTHER }, '42501'],
      ['a chosen creation time', { created_at: '2020-01-01T00:00:00Z' }, '42501'],
    ],
  },
  {
    table: 'product_comments',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      user_id: OWNER,
      product_id: 'blue-dream',
      content: "Smooth & sweet — 9/10 <3, wouldn't skip",
    }),
    refused: [
      ['an empty comment', { content: '' }, '23514'],
      ['a blank comment', { content: ' \n\t ' }, '23514'],
      ['a 2001-character comment', { content: long(2001) }, '23514'],
      ['a script tag', { content: '<script>alert(1)</script>' }, '23514'],
      ['a script tag with spaces', { content: '< SCRIPT src=//evil.example>' }, '23514'],
      ['a javascript: URL', { content: 'see JavaScript:alert(1)' }, '23514'],
      ['an onload handler', { content: '<body onload=alert(1)>' }, '23514'],
      ['an onclick handler', { content: '<a onclick = "x()">' }, '23514'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'saved_articles',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      user_id: OWNER,
      article_title: 'Prices fall in Colorado',
      article_summary: 'Wholesale flower dropped 8% in October.',
      article_image: 'https://images.example/a.jpg',
      article_source: 'Cannabis Wire',
      article_category: 'Business',
      article_url: 'https://news.example/prices-fall?utm=x#top',
    }),
    alsoValid: [
      [
        'only title and url',
        { article_summary: null, article_image: null, article_source: null, article_category: null },
      ],
    ],
    refused: [
      ['an empty title', { article_title: '' }, '23514'],
      ['a javascript: URL', { article_url: 'javascript:alert(1)' }, '23514'],
      ['a missing URL', { article_url: null }, '23502'],
      ['a data: image', { article_image: 'data:image/png;base64,AAAA' }, '23514'],
      ['a 5001-character summary', { article_summary: long(5001) }, '23514'],
      ['a script tag in the summary', { article_summary: '<script>x()</script>' }, '23514'],
      ['a 2049-character URL', { article_url: `https://news.example/${long(2030)}` }, '23514'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'notifications',
    scope: admin,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      user_id: OWNER,
      title: 'Report published',
      message: 'Your report is live & visible.',
    }),
    refused: [
      ['an empty title', { title: '' }, '23514'],
      ['a 2001-character message', { message: long(2001) }, '23514'],
      ['a script tag in the title', { title: '<script>x()</script>' }, '23514'],
      ['a missing message', { message: null }, '23502'],
      ['an unknown user', { user_id: randomUUID() }, '23503'],
    ],
  },
  {
    table: 'scammer_reports',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      scammer_name: 'Shady Sam',
      scammer_description: 'Sells fake lab results.',
      incident_details: 'Paid 300 dollars for an ounce that never arrived.',
      location: 'Denver, CO',
      business_name: 'Sam Supplies LLC',
      contact_info: 'sam@shady.example, +1 555 0100',
      amount_scammed: '300.50',
      date_of_incident: isoDate(0),
      reporter_user_id: OWNER,
      truth_confirmed_at: '2026-01-01T00:00:00+00:00',
    }),
    // The reporter's confirmation is stamped with the database's own time (decision 200).
    stored: { truth_confirmed_at: expect.any(String) },
    alsoValid: [
      ['nothing lost', { amount_scammed: '0' }],
      ['fifty cents', { amount_scammed: '0.5' }],
      [
        'no optional fields',
        {
          location: null,
          business_name: null,
          contact_info: null,
          amount_scammed: null,
          date_of_incident: null,
        },
      ],
      ['an incident years ago', { date_of_incident: '2015-06-30' }],
      // Names keep every character typed, shown as text (decision 200).
      ['an apostrophe in the name', { scammer_name: "O'Brien" }],
      ['a nickname in quotes', { scammer_name: 'Dave "Top Shelf" Miller' }],
      ['an ampersand in the business name', { business_name: 'Sam & Co' }],
      ['markup in the name, kept as text', { scammer_name: '<b>Sam</b>' }],
    ],
    refused: [
      ['a one-letter name', { scammer_name: 'S' }, '23514'],
      ['a blank name', { scammer_name: '   ' }, '23514'],
      ['a 101-character name', { scammer_name: long(101) }, '23514'],
      ['a control character in the name', { scammer_name: 'Sam\u0007' }, '23514'],
      ['a backtick', { scammer_description: 'Uses `rm -rf` on buyers' }, '23514'],
      ['a 9-character description', { scammer_description: long(9) }, '23514'],
      ['a 1001-character description', { scammer_description: long(1001) }, '23514'],
      ['19-character details', { incident_details: long(19) }, '23514'],
      ['2001-character details', { incident_details: long(2001) }, '23514'],
      [
        'a javascript: prefix in details',
        { incident_details: 'javascript:alert(document.cookie) was sent' },
        '23514',
      ],
      [
        'a data: prefix in details',
        { incident_details: 'Sent me data:text/html,<b>hello</b> links' },
        '23514',
      ],
      ['a one-letter location', { location: 'X' }, '23514'],
      ['a 201-character location', { location: long(201) }, '23514'],
      ['a one-letter business', { business_name: 'X' }, '23514'],
      ['4-character contact info', { contact_info: 'abcd' }, '23514'],
      ['501-character contact info', { contact_info: long(501) }, '23514'],
      ['a negative amount', { amount_scammed: '-1' }, '23514'],
      ['minus one cent', { amount_scammed: '-0.01' }, '23514'],
      ['NaN', { amount_scammed: 'NaN' }, '23514'],
      ['Infinity', { amount_scammed: 'Infinity' }, '23514'],
      ['a trillion', { amount_scammed: '1000000000000' }, '23514'],
      ['fractions of a cent', { amount_scammed: '12.345' }, '23514'],
      ['an amount that is not a number', { amount_scammed: 'lots' }, '22P02'],
      ['an incident in two days', { date_of_incident: isoDate(2) }, '23514'],
      ['an incident next year', { date_of_incident: isoDate(400) }, '23514'],
      ['an incident before 1970', { date_of_incident: '1969-12-31' }, '23514'],
      ['a date that is not a date', { date_of_incident: 'last tuesday' }, '22007'],
      ['a missing name', { scammer_name: null }, '23502'],
      ['a published status', { status: 'published' }, '42501'],
      ['an invented status', { status: 'approved' }, '42501'],
      ["another reporter's id", { reporter_user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'bookings',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      user_id: OWNER,
      full_name: 'Brand Owner',
      email: 'brand.owner+promo@example.co.uk',
      phone: '+1 (555) 010-0200',
      company_name: 'Sunset Farms',
      product_name: 'Sunset Gummies',
      product_description: 'Fruit gummies, 10 mg each.',
      product_category: 'Vape Cartridges',
      booking_date: isoDate(2),
      booking_time: '17:00',
      special_requests: 'Morning preferred.',
    }),
    alsoValid: [
      ...[
        'Flower',
        'Concentrates',
        'Edibles',
        'Vape Cartridges',
        'Topicals',
        'Accessories',
        'Seeds',
        'Other',
      ].map((category): [string, Row] => [`category ${category}`, { product_category: category }]),
      ...Array.from({ length: 17 }, (_, index): [string, Row] => {
        const minutes = 9 * 60 + index * 30;
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
        return [`slot ${time}`, { booking_time: time }];
      }),
      ['a UK phone number', { phone: '+44 20 7946 0958' }],
      [
        'only the required fields',
        { phone: null, company_name: null, product_description: null, special_requests: null },
      ],
      ['anonymous', { user_id: null }],
      ['eleven months ahead', { booking_date: isoDate(330) }],
    ],
    refused: [
      ['a one-letter name', { full_name: 'B' }, '23514'],
      ['a 101-character name', { full_name: long(101) }, '23514'],
      ['HTML in the name', { full_name: '<i>Brand</i>' }, '23514'],
      ['a script tag in the request', { special_requests: '<script>alert(1)</script>' }, '23514'],
      ['2001 characters of requests', { special_requests: long(2001) }, '23514'],
      ['an email without @', { email: 'brand.example.com' }, '23514'],
      ['an email without a dot in the domain', { email: 'brand@example' }, '23514'],
      ['an email with a space', { email: 'brand owner@example.com' }, '23514'],
      ['a 255-character email', { email: `${long(243)}@example.com` }, '23514'],
      ['a missing email', { email: null }, '23502'],
      ['a short phone number', { phone: '555-0100' }, '23514'],
      ['ten dashes', { phone: '----------' }, '23514'],
      ['letters in the phone number', { phone: '+1 555 CALL NOW' }, '23514'],
      ['an empty product name', { product_name: '' }, '23514'],
      ['a lower-case category', { product_category: 'flower' }, '23514'],
      ['an unknown category', { product_category: 'Pre-rolls' }, '23514'],
      ['a date two days ago', { booking_date: isoDate(-2) }, '23514'],
      // No same-day sessions (issue 21 item 10): today in the westernmost time zone is refused.
      [
        'today where it is earliest (UTC-12)',
        { booking_date: new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10) },
        '23514',
      ],
      ['a date in 400 days', { booking_date: isoDate(400) }, '23514'],
      ['30 February', { booking_date: '2030-02-30' }, '23514'],
      ['a date written dd/MM/yyyy', { booking_date: '21/11/2030' }, '23514'],
      ['a slot before 09:00', { booking_time: '08:30' }, '23514'],
      ['a slot after 17:00', { booking_time: '17:30' }, '23514'],
      ['a quarter-hour slot', { booking_time: '10:15' }, '23514'],
      ['a time without leading zero', { booking_time: '9:00' }, '23514'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'security_events',
    scope: owner,
    mode: 'insert',
    key: 'id',
    valid: () => ({
      id: randomUUID(),
      type: 'auth_error',
      category: 'authentication',
      action: 'signin',
      description: 'Invalid login credentials <script> attempt logged as text',
      additional_data: { userAgent: 'Mozilla/5.0', url: 'https://highgrade.example/auth', csrf: 'abcd1234' },
      risk_level: 'medium',
      user_id: OWNER,
    }),
    stored: { ip: '203.0.113.80' },
    refused: [
      ['an unknown risk level', { risk_level: 'extreme' }, '23514'],
      ['additional data that is a list', { additional_data: '[1, 2]' }, '23514'],
      ['9 KB of additional data', { additional_data: { blob: long(9000) } }, '23514'],
      ['an empty type', { type: '' }, '23514'],
      ['a 101-character action', { action: long(101) }, '23514'],
      ['a chosen client address', { ip: '10.0.0.1' }, '42501'],
      ['a chosen time', { created_at: '2020-01-01T00:00:00Z' }, '42501'],
      ["another user's id", { user_id: OTHER }, '42501'],
    ],
  },
  {
    table: 'user_roles',
    scope: () => serviceRole(),
    mode: 'insert',
    key: 'id',
    valid: () => ({ id: randomUUID(), user_id: OWNER, role: 'admin' }),
    refused: [
      ['an unknown role', { role: 'moderator' }, '23514'],
      ['an unknown user', { user_id: randomUUID() }, '23503'],
      ['a second admin row', { user_id: ADMIN }, '23505'],
    ],
  },
];

describe.each(SPECS)('$table', (spec) => {
  it('stores a valid row with exactly the values given', async () => {
    const values = spec.valid();
    const result = await write(spec.table, spec.scope(), values, spec.mode, spec.key);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.value).toMatchObject({ ...values, ...spec.stored });
  });

  it.each((spec.alsoValid ?? []).map(([name, patch]) => ({ name, patch })))(
    'accepts $name',
    async ({ patch }) => {
      const values = { ...spec.valid(), ...patch };
      const result = await write(spec.table, spec.scope(), values, spec.mode, spec.key);
      expect(result).toMatchObject({ ok: true, value: { ...values, ...spec.stored } });
    },
  );

  it.each(spec.refused.map(([name, patch, code]) => ({ name, patch, code })))(
    'refuses $name with $code',
    async ({ patch, code }) => {
      const result = await write(
        spec.table,
        spec.scope(),
        { ...spec.valid(), ...patch },
        spec.mode,
        spec.key,
      );
      expect(result.ok ? 'stored' : result.error.code).toBe(code);
    },
  );
});

describe('time-dependent rules', () => {
  it('name the rule they enforce', async () => {
    const booking = SPECS.find((spec) => spec.table === 'bookings') as Spec;
    const past = await write(
      'bookings',
      owner(),
      { ...booking.valid(), booking_date: isoDate(-2) },
      'insert',
      'id',
    );
    expect(past).toMatchObject({
      ok: false,
      error: {
        code: '23514',
        constraint: 'bookings_booking_date_not_past',
        message: 'A booking date cannot be in the past.',
      },
    });
    const report = SPECS.find((spec) => spec.table === 'scammer_reports') as Spec;
    const future = await write(
      'scammer_reports',
      owner(),
      { ...report.valid(), date_of_incident: isoDate(3) },
      'insert',
      'id',
    );
    expect(future).toMatchObject({
      ok: false,
      error: {
        code: '23514',
        constraint: 'scammer_reports_date_of_incident_not_future',
        message: 'Incident date cannot be in the future.',
      },
    });
  });

  it('bind the server too: service_role cannot book in the past', async () => {
    const booking = SPECS.find((spec) => spec.table === 'bookings') as Spec;
    const result = await write(
      'bookings',
      serviceRole(),
      { ...booking.valid(), booking_date: isoDate(-5) },
      'insert',
      'id',
    );
    expect(result).toMatchObject({ ok: false, error: { code: '23514' } });
  });

  it('do not stop an admin from handling a booking whose date has passed', async () => {
    const [row] = (
      await db.query<{ id: string }>(
        `insert into public.bookings (full_name, email, product_name, product_category, booking_date, booking_time)
         values ('Old Booking', 'old@example.com', 'Thing', 'Other', $1, '09:00') returning id`,
        [isoDate(1)],
      )
    ).rows;
    // Simulate time passing: the row's date is now in the past (written below the triggers' reach).
    await db.exec('alter table public.bookings disable trigger guard_booking');
    await db.query(`update public.bookings set booking_date = $1 where id = $2`, [isoDate(-30), row?.id]);
    await db.exec('alter table public.bookings enable trigger guard_booking');
    const result = await attempt(db, admin(), async (tx) => {
      const updated = await tx.query(`update public.bookings set special_requests = 'Done' where id = $1`, [
        row?.id,
      ]);
      return updated.rowCount;
    });
    expect(result).toEqual({ ok: true, value: 1 });
  });
});
