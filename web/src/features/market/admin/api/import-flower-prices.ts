import type { FlowerRow } from '../closes-csv.ts';
import { type ImportResult, marketRpc, useImportMutation } from './market-rpc.ts';

/** Regulator flower prices: checked row by row (apply false), or applied all at once. */
export function importFlowerPrices(rows: FlowerRow[], apply: boolean): Promise<ImportResult> {
  return marketRpc((supabase) =>
    supabase.rpc('market_import_flower_prices', { p_rows: rows, p_apply: apply }),
  );
}

export function useImportFlowerPrices() {
  return useImportMutation(importFlowerPrices);
}
