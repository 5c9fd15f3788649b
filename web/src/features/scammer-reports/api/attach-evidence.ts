import { loadSupabase } from '#web/lib/supabase.ts';
import { postFileWithProgress } from '#web/lib/upload-with-progress.ts';
import { evidenceObjectName } from '../evidence.ts';

/**
 * Sends a file to the server's evidence-upload function with progress (XMLHttpRequest: fetch reports
 * no upload progress). The server re-encodes it without its metadata and stores only that copy
 * (decision 199); its refusals (size, type, an unreadable file) reject with their sentence.
 */
function uploadEvidenceFile(objectName: string, file: File, onProgress: (fraction: number) => void) {
  return postFileWithProgress(
    `/functions/v1/evidence-upload?object_name=${encodeURIComponent(objectName)}`,
    file,
    onProgress,
    { 'content-type': file.type || 'application/octet-stream' },
  );
}

/**
 * Attaches one file to the member's own submitted report: its slot (the database counts up to 5),
 * then the bytes with progress, cleaned of metadata on the server. A failed upload frees its slot again.
 */
export async function attachEvidence(reportId: string, file: File, onProgress: (fraction: number) => void) {
  const supabase = await loadSupabase();
  const objectName = evidenceObjectName(reportId, file.type);
  const slot = await supabase.from('scammer_report_evidence').insert({
    report_id: reportId,
    object_name: objectName,
    file_name: file.name.slice(0, 255),
    content_type: file.type,
  });
  if (slot.error) throw slot.error;
  try {
    await uploadEvidenceFile(objectName, file, onProgress);
  } catch (error) {
    await supabase.from('scammer_report_evidence').delete().eq('object_name', objectName);
    throw error;
  }
}
