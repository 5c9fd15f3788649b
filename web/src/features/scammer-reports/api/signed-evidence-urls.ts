import { loadSupabase } from '#web/lib/supabase.ts';
import { EVIDENCE_BUCKET, EVIDENCE_URL_SECONDS } from '../evidence.ts';

/** An evidence file with a link that works for EVIDENCE_URL_SECONDS (decision 141). */
export interface EvidenceFile {
  id: string;
  object_name: string;
  content_type: string;
  url: string | null;
}

/** Evidence rows with their short-lived links (readers' and admins' reads alike); null when none was given. */
export async function withSignedUrls<T extends { object_name: string }>(
  rows: T[],
): Promise<(T & { url: string | null })[]> {
  if (rows.length === 0) return [];
  const supabase = await loadSupabase();
  const { data, error } = await supabase.storage.from(EVIDENCE_BUCKET).createSignedUrls(
    rows.map((row) => row.object_name),
    EVIDENCE_URL_SECONDS,
  );
  if (error) throw error;
  const urls = new Map((data ?? []).map((entry) => [entry.path, entry.signedUrl || null]));
  return rows.map((row) => ({ ...row, url: urls.get(row.object_name) ?? null }));
}
