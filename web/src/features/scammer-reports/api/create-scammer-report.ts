import { loadSupabase } from '../../../lib/supabase.ts';
import type { ReportRow } from '../report.ts';

/** spec §7 "scammer_reports: insert". Resolves the error supabase-js returned, or null. */
export async function createScammerReport(row: ReportRow): Promise<unknown | null> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_reports').insert(row);
  return error;
}
