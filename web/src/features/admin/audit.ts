import { listSearch, parsePage } from '#web/components/ui/paged-table.tsx';

/**
 * The audit section's filters as they are written in the URL (issue 15 "Audit and security"):
 * ?tab=changes&table=public.bookings&action=UPDATE&page=2, or ?tab=security&risk=high&page=1.
 */
export const AUDIT_TABLES = [
  'public.bookings',
  'public.user_roles',
  'public.admin_posts',
  'auth.users',
  'public.scammer_subscriptions',
  'public.profiles',
] as const;
export const AUDIT_ACTIONS = [
  'INSERT',
  'UPDATE',
  'DELETE',
  'booking.note',
  'member.suspend',
  'member.restore',
  'trial.grant',
  'trial.end',
] as const;

/** What the log's tables are, in words (issue 34, decision 167). */
const TABLE_LABELS: Record<string, string> = {
  'public.bookings': 'Booking',
  'public.user_roles': 'Admin role',
  'public.admin_posts': 'Team post',
  'auth.users': 'Account',
  'public.scammer_subscriptions': 'Subscription',
  'public.profiles': 'Profile',
  'public.brands': 'Brand',
  'public.brand_claims': 'Brand claim',
  'public.brand_licences': 'Brand licence',
  'public.products': 'Product',
  'public.scammer_reports': 'Scam report',
  'public.scammer_report_evidence': 'Scam report evidence',
  'public.scammer_report_replies': 'Reply to a scam report',
  'public.news_sources': 'News source',
  'public.market_constituents': 'Market index constituent',
};

/** What the log's actions are, in words. */
const ACTION_LABELS: Record<string, string> = {
  INSERT: 'Created',
  UPDATE: 'Changed',
  DELETE: 'Deleted',
  'booking.note': 'Internal note changed',
  'member.suspend': 'Account suspended',
  'member.restore': 'Account restored',
  'trial.grant': 'Trial given',
  'trial.end': 'Trial ended',
  'brand.merge': 'Brands merged',
};

/** "mystery_table.thing" → "Mystery table thing": anything not named above still reads as words. */
function words(raw: string): string {
  const plain = raw
    .replace(/^(public|auth|private)\./, '')
    .replace(/[._]+/g, ' ')
    .trim();
  return plain ? plain.charAt(0).toUpperCase() + plain.slice(1) : raw;
}

export function tableLabel(table: string): string {
  return TABLE_LABELS[table] ?? words(table);
}

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? words(action);
}

/** Who made the change: their name and email, "A deleted account", or the server itself. */
export function actorLabel(entry: Pick<AuditEntry, 'actorName' | 'actorEmail' | 'actorId'>): string {
  if (entry.actorName && entry.actorEmail) return `${entry.actorName} · ${entry.actorEmail}`;
  if (entry.actorName || entry.actorEmail) return (entry.actorName ?? entry.actorEmail) as string;
  return entry.actorId ? 'A deleted account' : 'The server';
}
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const AUDIT_PAGE_SIZE = 25;

export interface AuditFilters {
  tab: 'changes' | 'security';
  table: string | null;
  action: string | null;
  risk: RiskLevel | null;
  page: number;
}

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | null =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : null;

export function parseAuditFilters(params: URLSearchParams): AuditFilters {
  return {
    tab: params.get('tab') === 'security' ? 'security' : 'changes',
    table: oneOf(AUDIT_TABLES, params.get('table')),
    action: oneOf(AUDIT_ACTIONS, params.get('action')),
    risk: oneOf(RISK_LEVELS, params.get('risk')),
    page: parsePage(params.get('page')),
  };
}

export function auditFiltersSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  if (filters.tab === 'security') params.set('tab', 'security');
  if (filters.tab === 'changes' && filters.table) params.set('table', filters.table);
  if (filters.tab === 'changes' && filters.action) params.set('action', filters.action);
  if (filters.tab === 'security' && filters.risk) params.set('risk', filters.risk);
  return listSearch(params, filters.page);
}

export interface AuditEntry {
  id: string;
  at: string;
  actorEmail: string | null;
  actorName: string | null;
  actorId: string | null;
  action: string;
  targetTable: string;
  targetId: string | null;
  /** The target in words (a member's name, a post's title, a booking's product), when there is one. */
  targetName: string | null;
  before: unknown;
  after: unknown;
}

export interface SecurityEvent {
  id: string;
  createdAt: string;
  type: string;
  category: string;
  action: string;
  description: string | null;
  riskLevel: RiskLevel;
  userId: string | null;
  ip: string | null;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);
const optional = (value: unknown): string | null => (value == null ? null : text(value));

export function parseAuditEntry(row: Record<string, unknown>): AuditEntry {
  return {
    id: text(row.id),
    at: text(row.at),
    actorEmail: optional(row.actor_email),
    actorName: optional(row.actor_name),
    actorId: optional(row.actor_id),
    action: text(row.action),
    targetTable: text(row.target_table),
    targetId: optional(row.target_id),
    targetName: optional(row.target_name),
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

export function parseSecurityEvent(row: Record<string, unknown>): SecurityEvent {
  return {
    id: text(row.id),
    createdAt: text(row.created_at),
    type: text(row.type),
    category: text(row.category),
    action: text(row.action),
    description: optional(row.description),
    riskLevel: oneOf(RISK_LEVELS, text(row.risk_level)) ?? 'low',
    userId: optional(row.user_id),
    ip: optional(row.ip),
  };
}

/** The fields an UPDATE changed, for the row's summary ("status: new → confirmed"). */
export function changedFields(before: unknown, after: unknown): string[] {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return Object.keys(b)
    .filter((key) => key !== 'updated_at' && JSON.stringify(a[key]) !== JSON.stringify(b[key]))
    .map((key) => `${key}: ${JSON.stringify(a[key] ?? null)} → ${JSON.stringify(b[key] ?? null)}`);
}

/** When an audit entry or a security event happened, to the second (admins read them in their own zone). */
export const auditTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
