// @databases: both — every row check of the import is SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * Flower price imports (issue 20, decision 145) through the data API as the admin page calls them:
 * every row checked with a message by line (state, bad date, unit, unit mismatch against the stored
 * series and within the file, negative or zero price, duplicates, formulas, markup), nothing written
 * on any problem; otherwise new points, corrections as revisions, and the flower index recomputed
 * exactly. Only admins may import.
 */

let server: TestServer;
let member: SignedInUser;
let admin: SignedInUser;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  member = await signedInUser(server);
  admin = await signedInUser(server, { admin: true });
});
afterAll(() => server?.close());

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

const row = (overrides: Record<string, string> = {}) => ({
  state: 'MA',
  series: 'retail dried flower price',
  period: '2025-06-01',
  unit: 'USD/g',
  value: '5.10',
  statistic: 'average',
  source: 'Massachusetts Cannabis Control Commission open data',
  note: '',
  ...overrides,
});

const snapshot = () =>
  sql(`select count(*)::int as n, sum(value * revision)::text as s from public.flower_price_observations`);

describe('flower price imports', () => {
  it('refuses visitors and members', async () => {
    for (const client of [anonClient(server), member.client]) {
      const { error } = await client.rpc('market_import_flower_prices', { p_rows: [row()], p_apply: true });
      expect(error?.code).toBe('42501');
    }
  });

  it('names every problem by line and writes nothing', async () => {
    const before = await snapshot();
    const rows = [
      row(),
      row({ state: 'Massachusetts' }),
      row({ period: '2025-02-30' }),
      row({ unit: 'EUR/g', period: '2025-07-01' }),
      row({ unit: 'USD/oz', period: '2025-08-01' }),
      row({ value: '-4', period: '2025-09-01' }),
      row({ value: '0', period: '2025-10-01' }),
      row(),
      row({ source: '=HYPERLINK("http://x")', period: '2025-11-01' }),
      row({ statistic: '<b>mean</b>', period: '2025-04-01' }),
      row({ state: 'NY', series: 'new series', unit: 'USD/lb', period: '2025-01-01' }),
      row({ state: 'NY', series: 'new series', unit: 'USD/oz', period: '2025-02-01' }),
      row({ period: '2999-01-01' }),
    ];
    const { data, error } = await admin.client.rpc('market_import_flower_prices', {
      p_rows: rows,
      p_apply: true,
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ ok: false, applied: false, rows: 13 });
    expect(
      (data.errors as { line: number; column: string; message: string }[]).map(
        (e) => `${e.line} ${e.column}: ${e.message}`,
      ),
    ).toEqual([
      '3 state: state "MASSACHUSETTS" is not a two-letter state code',
      '4 period: bad date "2025-02-30" (expected YYYY-MM-DD, the first day of the period)',
      '5 unit: unit "EUR/g" is not one of USD/lb, USD/oz, USD/g',
      '6 unit: unit mismatch: MA "retail dried flower price" is reported in USD/g, not USD/oz',
      '7 value: negative price -4',
      '8 value: a price must be above zero',
      '9 period: duplicate: MA "retail dried flower price" 2025-06-01 is also on line 2',
      '10 source: formulas are not accepted (cell starts with =)',
      '11 statistic: statistic may not contain markup',
      '13 unit: unit mismatch: NY "new series" is reported in USD/lb, not USD/oz',
      '14 period: period 2999-01-01 is in the future',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('previews, applies, revises, and recomputes the flower index exactly', async () => {
    const rows = [row(), row({ period: '2025-07-01', value: '4.90' })];
    const preview = await admin.client.rpc('market_import_flower_prices', { p_rows: rows, p_apply: false });
    expect(preview.data).toMatchObject({ ok: true, applied: false, new: 2, revised: 0, unchanged: 0 });
    expect(
      await sql(
        `select count(*)::int as n from public.flower_price_observations where period >= '2025-06-01' and state = 'MA'`,
      ),
    ).toEqual([{ n: 0 }]);

    const applied = await admin.client.rpc('market_import_flower_prices', { p_rows: rows, p_apply: true });
    expect(applied.data).toMatchObject({ ok: true, applied: true, new: 2, revised: 0, unchanged: 0 });
    const points = await anonClient(server)
      .from('index_points')
      .select('date, value, source, revision, carried')
      .eq('index_slug', 'flower-price')
      .gte('date', '2025-04-01')
      .order('date');
    expect(points.error).toBeNull();
    const q3 = points.data?.find((point) => point.date === '2025-07-01');
    expect(q3?.source).toContain('MA 2025-07 4.9000 USD/g');
    const verify = await admin.client.rpc('market_verify', { p_index: 'flower-price' });
    expect(verify.data).toMatchObject({ ok: true });

    const corrected = await admin.client.rpc('market_import_flower_prices', {
      p_rows: [row({ period: '2025-07-01', value: '5.25', source: 'MA CCC, corrected' })],
      p_apply: true,
    });
    expect(corrected.data).toMatchObject({ ok: true, new: 0, revised: 1, unchanged: 0 });
    const stored = await anonClient(server)
      .from('flower_price_observations')
      .select('value, revision, source, usd_per_gram')
      .eq('state', 'MA')
      .eq('period', '2025-07-01')
      .single();
    expect(stored.data).toEqual({
      value: 5.25,
      revision: 2,
      source: 'MA CCC, corrected',
      usd_per_gram: 5.25,
    });
    const history = await anonClient(server)
      .from('index_point_revisions')
      .select('date, revision')
      .eq('index_slug', 'flower-price')
      .eq('date', '2025-07-01')
      .order('revision');
    // the shipped history carried a value into 2025 Q3 (revision 1); the new point replaced it
    // (revision 2); the correction is revision 3, the earlier ones kept
    expect(history.data?.map((point) => point.revision)).toEqual([1, 2]);
    expect((await admin.client.rpc('market_verify', { p_index: 'flower-price' })).data).toMatchObject({
      ok: true,
    });
    const again = await admin.client.rpc('market_import_flower_prices', {
      p_rows: [row({ period: '2025-07-01', value: '5.25', source: 'MA CCC, corrected' })],
      p_apply: true,
    });
    expect(again.data).toMatchObject({ ok: true, new: 0, revised: 0, unchanged: 1 });
    const audit = await sql<{ n: number }>(
      `select count(*)::int as n from private.audit_log where action = 'market import flower prices'`,
    );
    expect(audit[0]?.n).toBe(3);
  });

  it('refuses what is not an array of row objects', async () => {
    const notArray = await admin.client.rpc('market_import_flower_prices', {
      p_rows: { state: 'MA' },
      p_apply: true,
    });
    expect(notArray.error?.code).toBe('22023');
    const notObjects = await admin.client.rpc('market_import_flower_prices', {
      p_rows: [1, row()],
      p_apply: true,
    });
    expect(notObjects.data).toMatchObject({
      ok: false,
      errors: [{ line: 2, column: 'row', message: 'the row is not an object with named columns' }],
    });
  });
});
