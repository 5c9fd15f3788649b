import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditFilters, parseAuditEntry } from '../audit.ts';

/** A page of public.admin_audit_log (rows only for admins), newest first. */
export async function getAuditLog(
  filters: AuditFilters,
): Promise<{ rows: AuditEntry[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  let query = supabase.from('admin_audit_log').select('*', { count: 'estimated' });
  if (filters.table) query = query.eq('target_table', filters.table);
  if (filters.action) query = query.eq('action', filters.action);
  const from = (filters.page - 1) * AUDIT_PAGE_SIZE;
  const answer = await query.order('id', { ascending: false }).range(from, from + AUDIT_PAGE_SIZE - 1);
  return listPage(answer, parseAuditEntry);
}

export const auditLogQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: ['admin', 'audit', filters],
    queryFn: () => getAuditLog(filters),
    placeholderData: keepPreviousData,
  });
