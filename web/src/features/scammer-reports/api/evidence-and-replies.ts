import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { postFileWithProgress } from '#web/lib/upload-with-progress.ts';
import { EVIDENCE_BUCKET, EVIDENCE_URL_SECONDS, evidenceObjectName } from '../evidence.ts';

/** An evidence file with a link that works for EVIDENCE_URL_SECONDS (decision 141). */
export interface EvidenceFile {
  id: string;
  object_name: string;
  content_type: string;
  url: string | null;
}

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

async function withSignedUrls<T extends { object_name: string }>(
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

/** Readers: the approved files of a published report. */
export async function getPublishedEvidence(reportId: string): Promise<EvidenceFile[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('published_scammer_report_evidence')
    .select('id, object_name, content_type')
    .eq('report_id', reportId)
    .order('approved_at');
  if (error) throw error;
  return withSignedUrls(data ?? []);
}

export const publishedEvidenceQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'evidence', { userId, reportId }],
    queryFn: () => getPublishedEvidence(reportId),
    enabled: userId !== null,
    // Links expire: fetch new ones well before.
    staleTime: (EVIDENCE_URL_SECONDS / 2) * 1000,
    refetchInterval: (EVIDENCE_URL_SECONDS / 2) * 1000,
  });

/** Admins: every file of a report, with its original name and whether it is approved. */
export interface AdminEvidenceFile extends EvidenceFile {
  file_name: string;
  approved_at: string | null;
  /** When the server stored the copy without metadata; approval needs it (decision 199). */
  cleaned_at: string | null;
}

export async function getAdminEvidence(reportId: string): Promise<AdminEvidenceFile[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_evidence')
    .select('id, object_name, content_type, file_name, approved_at, cleaned_at')
    .eq('report_id', reportId)
    .order('created_at');
  if (error) throw error;
  return withSignedUrls(data ?? []);
}

export const adminEvidenceQueryOptions = (reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'evidence', reportId],
    queryFn: () => getAdminEvidence(reportId),
    staleTime: (EVIDENCE_URL_SECONDS / 2) * 1000,
  });

export function useApproveEvidence(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, approved }: { id: string; approved: boolean }) => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('scammer_report_evidence')
        .update({ approved_at: approved ? new Date().toISOString() : null })
        .eq('id', id)
        .select('id');
      if (error) throw error;
      if (!data || data.length === 0) throw new Error('The file could not be changed.');
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'admin', 'evidence', reportId] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Right of reply (decision 126)
// ---------------------------------------------------------------------------------------------------

export type ReplyKind = 'reply' | 'correction' | 'takedown';
export type ReplyRelation = 'person' | 'business' | 'representative';

export const REPLY_KINDS: readonly [ReplyKind, string, string][] = [
  ['reply', 'A reply', 'Your side of the story, shown under the report once accepted.'],
  [
    'correction',
    'A correction',
    'Something in the report is wrong; say what and why. Accepted corrections are shown under it.',
  ],
  [
    'takedown',
    'A takedown request',
    'The report should not be published (for example it names the wrong person). An accepted request takes it down for a new review.',
  ],
];
export const REPLY_RELATIONS: readonly [ReplyRelation, string][] = [
  ['person', 'I am the person named'],
  ['business', 'I own or run the business named'],
  ['representative', 'I represent the person or business named'],
];

/** How readers see who replied: never who, only how they are named. */
export const RELATION_FOR_READERS: Record<ReplyRelation, string> = {
  person: 'the person named',
  business: 'the business named',
  representative: 'a representative of those named',
};

export interface PublishedReply {
  id: string;
  kind: 'reply' | 'correction';
  relation: ReplyRelation;
  body: string;
  published_at: string;
}

export async function getPublishedReplies(reportId: string): Promise<PublishedReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('published_scammer_report_replies')
    .select('id, kind, relation, body, published_at')
    .eq('report_id', reportId)
    .order('published_at');
  if (error) throw error;
  return (data ?? []) as PublishedReply[];
}

export const publishedRepliesQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'replies', { userId, reportId }],
    queryFn: () => getPublishedReplies(reportId),
    enabled: userId !== null,
  });

export interface OwnReply {
  id: string;
  kind: ReplyKind;
  body: string;
  status: 'pending' | 'accepted' | 'declined';
  decision_note: string | null;
  created_at: string;
}

export async function getOwnReplies(reportId: string): Promise<OwnReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_replies')
    .select('id, kind, body, status, decision_note, created_at')
    .eq('report_id', reportId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return (data ?? []) as OwnReply[];
}

export const ownRepliesQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'my-replies', { userId, reportId }],
    queryFn: () => getOwnReplies(reportId),
    enabled: userId !== null,
  });

export function useSendReply(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: { kind: ReplyKind; relation: ReplyRelation; body: string }) => {
      const supabase = await loadSupabase();
      const { error } = await supabase
        .from('scammer_report_replies')
        .insert({ report_id: reportId, ...values });
      if (error) throw error;
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'my-replies'] }),
        // A sender sees the report they answered (decision 201).
        queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'for-reply'] }),
      ]),
  });
}

/** Admins: the requests waiting, oldest first, with the report they are about. */
export interface AdminReply extends OwnReply {
  report_id: string;
  relation: ReplyRelation;
  scammer_reports: { scammer_name: string; status: string } | null;
}

export async function getPendingReplies(): Promise<AdminReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_replies')
    .select(
      'id, report_id, kind, relation, body, status, decision_note, created_at, scammer_reports(scammer_name, status)',
    )
    .eq('status', 'pending')
    .order('created_at')
    .limit(100);
  if (error) throw error;
  return (data ?? []) as unknown as AdminReply[];
}

export const pendingRepliesQueryOptions = () =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', 'replies'], queryFn: getPendingReplies });

export function useDecideReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: {
      id: string;
      status: 'accepted' | 'declined';
      decision_note: string | null;
    }) => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('scammer_report_replies')
        .update({ status: change.status, decision_note: change.decision_note })
        .eq('id', change.id)
        .select('id');
      if (error) throw error;
      if (!data || data.length === 0) throw new Error('The request could not be changed.');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports'] }),
  });
}
