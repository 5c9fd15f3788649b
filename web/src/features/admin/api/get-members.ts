import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { memberSearchQuery } from '../member-search.ts';
import {
  type AdminMember,
  MEMBER_SORTS,
  MEMBERS_PAGE_SIZE,
  type MemberFilters,
  parseAdminMember,
} from '../members.ts';

/** The columns of public.admin_members the admin screens read. */
export const MEMBER_COLUMNS =
  'id, email, username, full_name, avatar_url, created_at, last_sign_in_at, suspended, is_admin, subscription_status, subscription_expires_at, trial_ends_at, report_count, booking_count';

/**
 * One page of members (public.admin_members: rows only for admins) and the total: counted up to 1,000,
 * estimated above (listPage).
 */
export async function getMembers(
  filters: MemberFilters,
): Promise<{ rows: AdminMember[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  const sort = MEMBER_SORTS[filters.sort];
  // A search reads admin_member_search, the same rows with search_words (decision 255), in a full-text
  // index; the list without one reads admin_members, which counts profiles alone.
  const source = filters.q ? supabase.from('admin_member_search') : supabase.from('admin_members');
  let query = source.select(MEMBER_COLUMNS, { count: 'estimated' });
  if (filters.q) query = query.textSearch('search_words', memberSearchQuery(filters.q), { config: 'simple' });
  if (filters.role === 'admin') {
    // The few admin ids first (user_roles is small): filtering the view on is_admin would compute it for
    // every member.
    const roles = await supabase.from('user_roles').select('user_id').eq('role', 'admin');
    if (roles.error) throw roles.error;
    query = query.in(
      'id',
      roles.data.map((row) => row.user_id as string),
    );
  }
  if (filters.status) query = query.eq('suspended', filters.status === 'suspended');
  const from = (filters.page - 1) * MEMBERS_PAGE_SIZE;
  const answer = await query
    .order(sort.column, { ascending: sort.ascending, nullsFirst: false })
    .order('id', { ascending: sort.ascending })
    .range(from, from + MEMBERS_PAGE_SIZE - 1);
  return listPage(answer, parseAdminMember);
}

export const membersQueryOptions = (filters: MemberFilters) =>
  queryOptions({
    queryKey: ['admin', 'members', filters],
    queryFn: () => getMembers(filters),
    placeholderData: keepPreviousData,
  });
