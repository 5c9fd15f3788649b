import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listPage } from '#web/lib/query/list-page.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
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

/** A page of the admins' member search (public.admin_find_members, decision 280): its rows and total. */
interface FoundMembers {
  members: Record<string, unknown>[];
  total: number;
  approximate: boolean;
}

/**
 * One page of members (public.admin_members: rows only for admins) and the total: counted up to 1,000,
 * estimated above (listPage). A search is admin_find_members, which counts the matches of the words
 * typed before it chooses how to read the page (decision 280).
 */
export async function getMembers(
  filters: MemberFilters,
): Promise<{ rows: AdminMember[]; total: number; approximate: boolean }> {
  const supabase = await loadSupabase();
  const from = (filters.page - 1) * MEMBERS_PAGE_SIZE;
  if (filters.q) {
    const { data, error } = await supabase.rpc('admin_find_members', {
      q: filters.q,
      role: filters.role,
      status: filters.status,
      sort: filters.sort,
      page_offset: from,
      page_rows: MEMBERS_PAGE_SIZE,
    });
    if (error) throw error;
    const found = data as FoundMembers;
    return {
      rows: found.members.map(parseAdminMember),
      total: found.total,
      approximate: found.approximate,
    };
  }
  const sort = MEMBER_SORTS[filters.sort];
  let query = supabase.from('admin_members').select(MEMBER_COLUMNS, { count: 'estimated' });
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
