import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { AUDIT_PAGE_SIZE, type AuditFilters, parseSecurityEvent, type SecurityEvent } from '../audit.ts';

/** A page of the security events the app logged (RLS: admins read them), newest first. */
export async function getSecurityEvents(
  filters: AuditFilters,
): Promise<{ rows: SecurityEvent[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  let query = supabase
    .from('security_events')
    .select('id, created_at, type, category, action, description, risk_level, user_id, ip', {
      count: 'estimated',
    });
  if (filters.risk) query = query.eq('risk_level', filters.risk);
  const from = (filters.page - 1) * AUDIT_PAGE_SIZE;
  const answer = await query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + AUDIT_PAGE_SIZE - 1);
  return listPage(answer, parseSecurityEvent);
}

export const securityEventsQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: ['admin', 'security-events', filters],
    queryFn: () => getSecurityEvents(filters),
    placeholderData: keepPreviousData,
  });
