// @databases: both — the market data's RLS and import checks are SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * The market data through the data API (product §market-index, decisions 127–129): everyone reads
 * points with their source and as-of; nobody but an admin (or the server) writes; imports refuse a
 * file with any bad row, with row-level messages, and write nothing; the demonstration series is
 * labelled and goes when real closes arrive.
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

describe('reading', () => {
  it('gives everyone the indices and points, each point with source, as-of and revision', async () => {
    const anon = anonClient(server);
    const indices = await anon
      .from('market_indices')
      .select('slug, kind, base_value, unit, methodology')
      .order('slug');
    expect(indices.error).toBeNull();
    expect(indices.data?.map((row) => row.slug)).toEqual(['cannabis-equity', 'flower-price']);
    expect(indices.data?.[1]?.methodology).toContain('## Formula');
    const points = await anon
      .from('index_points')
      .select('date, value, source, as_of, revision, carried, is_sample')
      .eq('index_slug', 'flower-price')
      .order('date');
    expect(points.error).toBeNull();
    expect(points.data?.[0]).toMatchObject({ date: '2018-10-01', value: 100, revision: 1, is_sample: false });
    for (const point of points.data ?? []) {
      expect(point.source.length).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(point.as_of))).toBe(false);
    }
    expect(points.data?.some((point) => point.carried)).toBe(true);
    const observations = await anon
      .from('flower_price_observations')
      .select('state, unit, value, usd_per_gram, statistic, source')
      .eq('state', 'MI')
      .limit(1);
    expect(observations.data?.[0]).toMatchObject({ state: 'MI', unit: 'USD/oz', statistic: 'average' });
  });
});

describe('writing', () => {
  it('refuses writes from visitors and members, on every table and import', async () => {
    for (const client of [anonClient(server), member.client]) {
      const point = await client
        .from('index_points')
        .insert({ index_slug: 'flower-price', date: '2030-01-01', value: 1, source: 'x' });
      expect(point.error?.code).toBe('42501');
      const close = await client
        .from('market_closes')
        .insert({ ticker: 'TLRY', date: '2025-01-02', close: 1, source: 'x' });
      expect(close.error?.code).toBe('42501');
      const update = await client
        .from('flower_price_observations')
        .update({ value: 1 })
        .eq('state', 'CO')
        .select();
      expect(update.error?.code ?? (update.data?.length === 0 ? 'none' : 'updated')).not.toBe('updated');
      const constituent = await client
        .from('market_constituents')
        .insert({ index_slug: 'cannabis-equity', ticker: 'TLRY', effective_from: '2025-01-01' });
      expect(constituent.error?.code).toBe('42501');
      const imported = await client.rpc('market_import_closes', {
        p_rows: [{ ticker: 'TLRY', date: '2025-01-02', close: '1', source: 'x' }],
        p_apply: true,
      });
      expect(imported.error?.code).toBe('42501');
      const verify = await client.rpc('market_verify', { p_index: 'flower-price' });
      expect(verify.error?.code).toBe('42501');
    }
    expect(await sql(`select count(*)::int as n from public.market_closes where ticker = 'TLRY'`)).toEqual([
      { n: 0 },
    ]);
    expect(
      await sql(
        `select value::text from public.flower_price_observations where state = 'CO' and period = '2018-10-01'`,
      ),
    ).toEqual([{ value: '759.0000' }]);
  });

  it('lets an admin verify an index', async () => {
    const { data, error } = await admin.client.rpc('market_verify', { p_index: 'flower-price' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ ok: true, mismatches: [] });
  });
});

describe('importing closes', () => {
  it('refuses a file with bad rows, names each problem by line, and writes nothing', async () => {
    const rows = [
      { ticker: 'TLRY', date: '2025-01-02', close: '1.50', source: 'broker A' },
      { ticker: 'NOPE', date: '2025-01-02', close: '1.50', source: 'broker A' },
      { ticker: 'CGC', date: '2025-02-30', close: '1.50', source: 'broker A' },
      { ticker: 'ACB', date: '2025-01-02', close: '-3', source: 'broker A' },
      { ticker: 'TLRY', date: '2025-01-02', close: '1.60', source: 'broker A' },
      { ticker: 'SNDL', date: '2025-01-02', close: '2', currency: 'CAD', source: 'broker A' },
      { ticker: 'OGI', date: '2025-01-02', close: '2', source: '=cmd|/c calc' },
      { ticker: 'VFF', date: '2025-01-02', close: 'abc', source: '<b>x</b>' },
    ];
    const { data, error } = await admin.client.rpc('market_import_closes', { p_rows: rows, p_apply: true });
    expect(error).toBeNull();
    expect(data).toMatchObject({ ok: false, applied: false, rows: 8 });
    const messages = (data.errors as { line: number; column: string; message: string }[]).map(
      (row) => `${row.line} ${row.column}: ${row.message}`,
    );
    expect(messages).toEqual([
      '3 ticker: unknown ticker "NOPE" (not in the equity universe)',
      '4 date: bad date "2025-02-30" (expected YYYY-MM-DD)',
      '5 close: negative price -3',
      '6 date: duplicate: TLRY 2025-01-02 is also on line 2',
      '7 currency: unit mismatch: SNDL closes are in USD, not CAD',
      '8 source: formulas are not accepted (cell starts with =)',
      '9 close: close "abc" is not a price (up to 4 decimals)',
      '9 source: source may not contain markup',
    ]);
    expect(await sql('select count(*)::int as n from public.market_closes')).toEqual([{ n: 0 }]);
  });

  it('refuses what is not an array of rows with a client error', async () => {
    const { error } = await admin.client.rpc('market_import_closes', {
      p_rows: { ticker: 'TLRY' },
      p_apply: true,
    });
    expect(error?.code).toBe('22023');
  });

  it('previews, applies, revises, and replaces the demonstration series', async () => {
    await sql('select private.market_samples(true)');
    const demo = await anonClient(server)
      .from('index_points')
      .select('date, value, is_sample, source')
      .eq('index_slug', 'cannabis-equity')
      .order('date');
    expect(demo.data?.length).toBeGreaterThan(300);
    expect(demo.data?.every((point) => point.is_sample && point.source.includes('Demonstration'))).toBe(true);

    const rows = [
      { ticker: 'TLRY', date: '2025-01-02', close: '1.50', source: 'broker A' },
      { ticker: 'CGC', date: '2025-01-02', close: '3.00', source: 'broker A' },
      { ticker: 'TLRY', date: '2025-01-03', close: '1.65', source: 'broker A' },
      { ticker: 'CGC', date: '2025-01-03', close: '3.00', source: 'broker A' },
    ];
    const preview = await admin.client.rpc('market_import_closes', { p_rows: rows, p_apply: false });
    expect(preview.data).toMatchObject({ ok: true, applied: false, new: 4, revised: 0 });
    expect(await sql('select count(*)::int as n from public.market_closes where not is_sample')).toEqual([
      { n: 0 },
    ]);

    const applied = await admin.client.rpc('market_import_closes', { p_rows: rows, p_apply: true });
    expect(applied.data).toMatchObject({ ok: true, applied: true, new: 4 });
    expect(applied.data.samples_removed).toBeGreaterThan(0);
    const real = await anonClient(server)
      .from('index_points')
      .select('date, value, is_sample, revision')
      .eq('index_slug', 'cannabis-equity')
      .order('date');
    // 100, then 100·(1.65/1.5 + 3/3)/2 = 105
    expect(real.data).toEqual([
      { date: '2025-01-02', value: 100, is_sample: false, revision: 1 },
      { date: '2025-01-03', value: 105, is_sample: false, revision: 1 },
    ]);

    const corrected = await admin.client.rpc('market_import_closes', {
      p_rows: [{ ticker: 'TLRY', date: '2025-01-03', close: '1.80', source: 'broker A, corrected' }],
      p_apply: true,
    });
    expect(corrected.data).toMatchObject({ ok: true, revised: 1, new: 0 });
    const history = await anonClient(server)
      .from('market_close_revisions')
      .select('ticker, date, revision, close, source')
      .eq('ticker', 'TLRY');
    expect(history.data).toEqual([
      { ticker: 'TLRY', date: '2025-01-03', revision: 1, close: 1.65, source: 'broker A' },
    ]);
    const pointHistory = await anonClient(server)
      .from('index_point_revisions')
      .select('date, revision, value')
      .eq('index_slug', 'cannabis-equity');
    expect(pointHistory.data).toEqual([{ date: '2025-01-03', revision: 1, value: 105 }]);
    const verify = await admin.client.rpc('market_verify', { p_index: 'cannabis-equity' });
    expect(verify.data).toMatchObject({ ok: true, checked: 2 });
    // the samples do not come back once real closes exist
    await sql('select private.market_samples(true)');
    expect(await sql('select count(*)::int as n from public.market_closes where is_sample')).toEqual([
      { n: 0 },
    ]);
    const audit = await sql<{ n: number }>(
      `select count(*)::int as n from private.audit_log where action = 'market import closes'`,
    );
    expect(audit[0]?.n).toBe(2);
  });
});
