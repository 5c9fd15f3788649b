import { queryOptions, skipToken } from '@tanstack/react-query';
import { getIsAdmin } from '#web/lib/auth/api/get-is-admin.ts';

/**
 * Whether the member holds the admin role, for the /admin guard. The server refuses every admin call
 * anyway (RLS and SECURITY DEFINER functions checking has_role('admin')); this only decides what to show.
 */
export const adminRoleQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['admin', 'role', { userId }],
    queryFn: userId ? () => getIsAdmin(userId) : skipToken,
    staleTime: 60_000,
  });
