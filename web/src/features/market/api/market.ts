import { queryOptions } from '@tanstack/react-query';
import { type Database, loadDatabase } from '#web/lib/supabase.ts';
import { HEADLINE_RANGE, type IndexPoint, type RangeKey, rangeStart } from '../market-data.ts';

/** The market data through the data API (product §market-index): everyone reads; nothing here writes. */

export interface MarketIndex {
  slug: string;
  kind: 'equity' | 'flower';
  name: string;
  description: string;
  methodology: string;
  base_date: string | null;
  base_value: number;
  unit: string;
  currency: string | null;
  /** Whether the index's latest value is a sample: its page labels it before the values arrive. */
  latest_is_sample: boolean;
  /**
   * Whether the index has any value yet. Without one, its page says so at once instead of holding the
   * chart's place and then giving it up (a layout shift).
   */
  has_values: boolean;
  /** The date of the index's latest value: whether it is stale is known before the values arrive. */
  latest_date: string | null;
}

export interface PointRevision {
  date: string;
  revision: number;
  value: number;
  source: string;
  as_of: string;
  replaced_at: string;
}

export interface FlowerObservation {
  state: string;
  series: string;
  period: string;
  unit: string;
  value: number;
  usd_per_gram: number;
  statistic: string;
  source: string;
  note: string | null;
  revision: number;
}

export interface Constituent {
  ticker: string;
  company: string;
  venue: string;
  lastClose: number | null;
  lastDate: string | null;
  previousClose: number | null;
  source: string | null;
  isSample: boolean;
}

export async function getIndices(): Promise<MarketIndex[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('market_indices')
    .select(
      'slug, kind, name, description, methodology, base_date, base_value, unit, currency, latest:index_points(is_sample, date)',
    )
    .order('sort_order')
    .order('date', { referencedTable: 'index_points', ascending: false })
    .limit(1, { referencedTable: 'index_points' });
  if (error) throw error;
  return (data ?? []).map(({ latest, ...index }) => ({
    ...index,
    latest_is_sample: (latest as { is_sample: boolean }[] | null)?.[0]?.is_sample === true,
    has_values: ((latest as unknown[] | null) ?? []).length > 0,
    latest_date: (latest as { date: string }[] | null)?.[0]?.date ?? null,
  })) as MarketIndex[];
}

export const indicesQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'indices'], queryFn: getIndices, staleTime: 5 * 60_000 });

/** The latest point of an index (what a range counts back from). */
async function latestDate(slug: string, database?: Database): Promise<string | null> {
  const db = database ?? (await loadDatabase());
  const { data, error } = await db
    .from('index_points')
    .select('date')
    .eq('index_slug', slug)
    .order('date', { ascending: false })
    .limit(1);
  if (error) throw error;
  return (data?.[0]?.date as string | undefined) ?? null;
}

/**
 * The points of one range, oldest first. `database`: the client a caller already holds, so a page's
 * reads all go through one client (a visitor's through the public one, decision 158).
 */
export async function getPoints(slug: string, range: RangeKey, database?: Database): Promise<IndexPoint[]> {
  const db = database ?? (await loadDatabase());
  const latest = range === 'All' ? null : await latestDate(slug, db);
  const start = latest ? rangeStart(range, latest) : null;
  let query = db
    .from('index_points')
    .select('date, value, source, as_of, revision, carried, detail, is_sample')
    .eq('index_slug', slug);
  if (start) query = query.gte('date', start);
  const { data, error } = await query.order('date').limit(20000);
  if (error) throw error;
  return (data ?? []) as IndexPoint[];
}

export const pointsQueryOptions = (slug: string, range: RangeKey) =>
  queryOptions({ queryKey: ['market', 'points', slug, range], queryFn: () => getPoints(slug, range) });

export async function getPointRevisions(slug: string): Promise<PointRevision[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('index_point_revisions')
    .select('date, revision, value, source, as_of, replaced_at')
    .eq('index_slug', slug)
    .order('date')
    .order('revision')
    .limit(5000);
  if (error) throw error;
  return (data ?? []) as PointRevision[];
}

export const pointRevisionsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['market', 'revisions', slug], queryFn: () => getPointRevisions(slug) });

export async function getFlowerObservations(): Promise<FlowerObservation[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('flower_price_observations')
    .select('state, series, period, unit, value, usd_per_gram, statistic, source, note, revision')
    .order('state')
    .order('period');
  if (error) throw error;
  return (data ?? []) as FlowerObservation[];
}

export const flowerObservationsQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'flower-observations'], queryFn: getFlowerObservations });

/** The securities the index holds today, each with its last two closes. */
export async function getConstituents(slug: string): Promise<Constituent[]> {
  const db = await loadDatabase();
  const today = new Date().toISOString().slice(0, 10);
  const members = await db
    .from('market_constituents')
    .select('ticker, effective_from, effective_to, market_securities(company, venue)')
    .eq('index_slug', slug)
    .lte('effective_from', today)
    .or(`effective_to.is.null,effective_to.gt.${today}`)
    .order('ticker');
  if (members.error) throw members.error;
  const tickers = [...new Set((members.data ?? []).map((row) => row.ticker as string))];
  const latest = await latestDate(slug);
  const closesByTicker = new Map<
    string,
    { date: string; close: number; source: string; is_sample: boolean }[]
  >();
  if (latest && tickers.length > 0) {
    const from = new Date(Date.parse(`${latest}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
    const closes = await db
      .from('market_closes')
      .select('ticker, date, close, source, is_sample')
      .in('ticker', tickers)
      .gte('date', from)
      .order('date', { ascending: false })
      .limit(5000);
    if (closes.error) throw closes.error;
    for (const row of closes.data ?? []) {
      const list = closesByTicker.get(row.ticker as string) ?? [];
      list.push(row as { date: string; close: number; source: string; is_sample: boolean });
      closesByTicker.set(row.ticker as string, list);
    }
  }
  return tickers.map((ticker) => {
    const row = (members.data ?? []).find((member) => member.ticker === ticker);
    const security = (row?.market_securities ?? null) as unknown as { company: string; venue: string } | null;
    const [last, previous] = closesByTicker.get(ticker) ?? [];
    return {
      ticker,
      company: security?.company ?? ticker,
      venue: security?.venue ?? '',
      lastClose: last?.close ?? null,
      lastDate: last?.date ?? null,
      previousClose: previous?.close ?? null,
      source: last?.source ?? null,
      isSample: last?.is_sample ?? false,
    };
  });
}

export const constituentsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['market', 'constituents', slug], queryFn: () => getConstituents(slug) });

export interface Headline {
  slug: string;
  name: string;
  kind: 'equity' | 'flower';
  points: IndexPoint[];
}

/**
 * The home page's headline: each index's points of HEADLINE_RANGE (oldest first), read by the index
 * page's own query (`getPoints`), so the home page and the index page show the same value and change
 * for the same range (decision 206).
 */
export async function getHeadlines(): Promise<Headline[]> {
  const db = await loadDatabase();
  const indices = await db.from('market_indices').select('slug, name, kind').order('sort_order');
  if (indices.error) throw indices.error;
  return Promise.all(
    (indices.data ?? []).map(async (index) => ({
      slug: index.slug as string,
      name: index.name as string,
      kind: index.kind as Headline['kind'],
      points: await getPoints(index.slug as string, HEADLINE_RANGE, db),
    })),
  );
}

export const headlinesQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'headlines'], queryFn: () => getHeadlines(), staleTime: 5 * 60_000 });
