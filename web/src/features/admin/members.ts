import { listSearch, parsePage } from '#web/components/ui/paged-table.tsx';

/**
 * The admins' member list (issue 15 "Members and roles"): filters as written in the URL
 * (?q=morgan&role=admin&status=suspended&sort=name&page=2), the rows read from public.admin_members,
 * and how a member's access to the Scammer Network is described.
 */
export const MEMBER_SORTS = {
  newest: { label: 'Newest members', column: 'created_at', ascending: false },
  oldest: { label: 'Oldest members', column: 'created_at', ascending: true },
  name: { label: 'Name, A to Z', column: 'full_name', ascending: true },
} as const;
export type MemberSort = keyof typeof MEMBER_SORTS;

export const MEMBERS_PAGE_SIZE = 25;
/** Longer searches are cut: nobody's email, username and name together are longer. */
export const MEMBER_SEARCH_MAX = 100;

export interface MemberFilters {
  q: string;
  role: 'admin' | null;
  status: 'suspended' | 'active' | null;
  sort: MemberSort;
  page: number;
}

export function parseMemberFilters(params: URLSearchParams): MemberFilters {
  const sort = params.get('sort');
  const status = params.get('status');
  return {
    q: (params.get('q') ?? '').trim().slice(0, MEMBER_SEARCH_MAX),
    role: params.get('role') === 'admin' ? 'admin' : null,
    status: status === 'suspended' || status === 'active' ? status : null,
    sort: sort && sort in MEMBER_SORTS ? (sort as MemberSort) : 'newest',
    page: parsePage(params.get('page')),
  };
}

/** The URL's search for filters; defaults are left out so links stay short. */
export function memberFiltersSearch(filters: MemberFilters): string {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.role) params.set('role', filters.role);
  if (filters.status) params.set('status', filters.status);
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  return listSearch(params, filters.page);
}

export interface AdminMember {
  id: string;
  email: string | null;
  username: string | null;
  fullName: string | null;
  avatarUrl: string | null;
  createdAt: string;
  lastSignInAt: string | null;
  suspended: boolean;
  isAdmin: boolean;
  subscriptionStatus: 'active' | 'cancelled' | null;
  subscriptionExpiresAt: string | null;
  trialEndsAt: string | null;
  reportCount: number;
  bookingCount: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const optional = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;
const count = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

export function parseAdminMember(row: Record<string, unknown>): AdminMember {
  const subscription = row.subscription_status;
  return {
    id: text(row.id),
    email: optional(row.email),
    username: optional(row.username),
    fullName: optional(row.full_name),
    avatarUrl: optional(row.avatar_url),
    createdAt: text(row.created_at),
    lastSignInAt: optional(row.last_sign_in_at),
    suspended: row.suspended === true,
    isAdmin: row.is_admin === true,
    subscriptionStatus: subscription === 'active' || subscription === 'cancelled' ? subscription : null,
    subscriptionExpiresAt: optional(row.subscription_expires_at),
    trialEndsAt: optional(row.trial_ends_at),
    reportCount: count(row.report_count),
    bookingCount: count(row.booking_count),
  };
}

const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** How the member reaches the Scammer Network today (product §scammer-database access rule). */
export function memberAccess(member: AdminMember, now = new Date()): string {
  if (member.isAdmin) return 'Admin (always has access)';
  const expires = member.subscriptionExpiresAt ? new Date(member.subscriptionExpiresAt) : null;
  if (member.subscriptionStatus && expires && expires > now) {
    return member.subscriptionStatus === 'active'
      ? `Subscribed, renews ${shortDate(expires.toISOString())}`
      : `Subscription cancelled, access until ${shortDate(expires.toISOString())}`;
  }
  const trial = member.trialEndsAt ? new Date(member.trialEndsAt) : null;
  if (trial && trial > now) return `Free trial until ${shortDate(trial.toISOString())}`;
  if (member.subscriptionStatus && expires) return `Subscription ended ${shortDate(expires.toISOString())}`;
  return 'No access (trial ended)';
}

/** The name to show: full name, else @username, else the email, else the id's start. */
export function memberName(member: AdminMember): string {
  return (
    member.fullName ?? (member.username ? `@${member.username}` : (member.email ?? member.id.slice(0, 8)))
  );
}
