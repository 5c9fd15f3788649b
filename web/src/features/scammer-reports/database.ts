/**
 * The Scammer Network's search as the URL keeps it, and how a published report is worded (product
 * §scammer-database). Pure, so the rules are tested without a browser.
 */

export type SearchSort = 'newest' | 'amount';

export interface SearchFilters {
  q: string;
  location: string;
  /** Whole dollars as typed; empty = no bound. */
  amountMin: string;
  amountMax: string;
  /** yyyy-MM-dd; empty = no bound. */
  from: string;
  to: string;
  sort: SearchSort;
  /** A brand's id: only the reports linked to that brand (a brand page's "Read the reports"). */
  brand: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Filters from the address; anything malformed is ignored rather than sent. */
export function filtersOf(params: URLSearchParams): SearchFilters {
  const text = (key: string) => (params.get(key) ?? '').trim().slice(0, 200);
  const amount = (key: string) => (AMOUNT.test(text(key)) ? text(key) : '');
  const date = (key: string) => (ISO_DATE.test(text(key)) ? text(key) : '');
  return {
    q: text('q'),
    location: text('location'),
    amountMin: amount('min'),
    amountMax: amount('max'),
    from: date('from'),
    to: date('to'),
    sort: params.get('sort') === 'amount' ? 'amount' : 'newest',
    brand: UUID.test(text('brand')) ? text('brand').toLowerCase() : '',
  };
}

/** The arguments of search_scammer_reports for these filters. */
export function searchArgs(filters: SearchFilters, limit: number, offset = 0) {
  return {
    query: filters.q || null,
    location: filters.location || null,
    amount_min: filters.amountMin ? Number(filters.amountMin) : null,
    amount_max: filters.amountMax ? Number(filters.amountMax) : null,
    incident_from: filters.from || null,
    incident_to: filters.to || null,
    sort: filters.sort,
    result_limit: limit,
    result_offset: offset,
    brand: filters.brand || null,
  };
}

export function hasFilters(filters: SearchFilters): boolean {
  return Boolean(
    filters.q ||
      filters.location ||
      filters.amountMin ||
      filters.amountMax ||
      filters.from ||
      filters.to ||
      filters.brand,
  );
}

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const moneyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A yyyy-MM-dd date or a timestamp as "November 24, 2026". */
export function formatDay(value: string): string {
  const date = new Date(ISO_DATE.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? value : dayFormat.format(date);
}

export function formatAmount(value: number | string | null): string | null {
  if (value === null || value === '') return null;
  const amount = Number(value);
  return Number.isFinite(amount) ? moneyFormat.format(amount) : null;
}

/**
 * Product §scammer-database: a published report reads as a member's report, never the site's verdict.
 * "Reported by a member on November 2, 2026, reviewed on November 4, 2026."
 */
export function attribution(reportedAt: string, reviewedAt: string | null): string {
  const reported = `Reported by a member on ${formatDay(reportedAt)}`;
  return reviewedAt ? `${reported}, reviewed on ${formatDay(reviewedAt)}.` : `${reported}.`;
}

/** Fields an admin can redact, with the names readers and admins see. */
export const REDACTABLE_FIELDS = [
  ['scammer_description', 'Description'],
  ['incident_details', 'Incident details'],
  ['location', 'Location'],
  ['business_name', 'Business name'],
  ['contact_info', 'Contact details'],
  ['amount_scammed', 'Amount'],
  ['date_of_incident', 'Date of incident'],
] as const;

export type RedactableField = (typeof REDACTABLE_FIELDS)[number][0];

const IDENTIFIER_LABELS: Record<string, string> = {
  phone: 'Phone',
  email: 'Email',
  domain: 'Website',
  handle: 'Handle',
};

/** "Phone +13035550147", "Handle @greendeals": which identifier links two reports. */
export function identifierText(kind: string, value: string): string {
  return `${IDENTIFIER_LABELS[kind] ?? kind} ${kind === 'handle' ? `@${value}` : value}`;
}

/** One entry per linked report, with every identifier it shares (the function returns one row each). */
export function groupLinks<T extends { id: string; kind: string; value: string }>(
  rows: readonly T[],
): { report: T; identifiers: string[] }[] {
  const groups = new Map<string, { report: T; identifiers: string[] }>();
  for (const row of rows) {
    const group = groups.get(row.id) ?? { report: row, identifiers: [] };
    group.identifiers.push(identifierText(row.kind, row.value));
    groups.set(row.id, group);
  }
  return [...groups.values()];
}

const CHANGE_KINDS = ['summary', 'masking', 'evidence'] as const;

/**
 * "Updated DATE: summary, masking" (decision 201): the last change readers can see to a published
 * report and every kind of change it has had, in a fixed order; null when it never changed.
 */
export function updatedLine(updates: readonly { kind: string; changed_at: string }[]): string | null {
  if (updates.length === 0) return null;
  const latest = updates.map((update) => update.changed_at).sort()[updates.length - 1] ?? '';
  const kinds = CHANGE_KINDS.filter((kind) => updates.some((update) => update.kind === kind));
  return `Updated ${formatDay(latest)}: ${kinds.join(', ')}.`;
}
