import type { CloseRow } from '../closes-csv.ts';
import { type ImportResult, marketRpc, useImportMutation } from './market-rpc.ts';

/** Daily closes of the equity universe: checked row by row (apply false), or applied all at once. */
export function importCloses(rows: CloseRow[], apply: boolean): Promise<ImportResult> {
  return marketRpc((supabase) => supabase.rpc('market_import_closes', { p_rows: rows, p_apply: apply }));
}

export function useImportCloses() {
  return useImportMutation(importCloses);
}
