import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import { getLatestDate } from './get-latest-date.ts';

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

interface Close {
  date: string;
  close: number;
  source: string;
  is_sample: boolean;
}

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
  const latest = await getLatestDate(slug);
  const closesByTicker = new Map<string, Close[]>();
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
      list.push(row as Close);
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
