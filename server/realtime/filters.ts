/**
 * postgres_changes `filter` strings, as realtime-js builds them (`user_id=eq.42`,
 * `status=in.(open,"on hold")`, several conditions joined by commas meaning AND). Values stay text:
 * the database checks each against the column's type when subscribing and compares with the type's
 * own operators for every change (server/realtime/definitions/apply_changes_1_filters.sql).
 */

export const FILTER_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface Filter {
  column: string;
  op: FilterOperator;
  /** Text of the value; for `in`, a PostgreSQL array literal (`{a,"b c"}`). */
  value: string;
}

export type FilterParse = { ok: true; filters: Filter[] } | { ok: false; message: string };

const MAX_FILTER_LENGTH = 4096;

/** Splits on commas that are outside parentheses and double quotes. */
function splitTopLevel(filter: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i] as string;
    if (quoted) {
      current += char;
      if (char === '\\' && i + 1 < filter.length) {
        current += filter[++i];
      } else if (char === '"') {
        quoted = false;
      }
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      segments.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  segments.push(current);
  return segments;
}

/** `"a \"b\""` → `a "b"`; anything not wholly quoted is returned as it is. */
function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  let out = '';
  for (let i = 1; i < value.length - 1; i++) {
    const char = value[i] as string;
    if (char === '\\' && i + 1 < value.length - 1) out += value[++i];
    else if (char === '"') return value;
    else out += char;
  }
  return out;
}

function parseSegment(segment: string): { ok: true; filter: Filter } | { ok: false; message: string } {
  const trimmed = segment.trim();
  if (trimmed === '')
    return { ok: false, message: 'filter must not contain empty segments (check for extra commas)' };
  const equals = trimmed.indexOf('=');
  if (equals <= 0) return { ok: false, message: JSON.stringify([trimmed]) };
  const column = trimmed.slice(0, equals);
  const rest = trimmed.slice(equals + 1);
  const dot = rest.indexOf('.');
  if (dot <= 0) return { ok: false, message: JSON.stringify([column, rest]) };
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    return { ok: false, message: JSON.stringify([op, value]) };
  }
  if (op === 'in') {
    if (value.length < 2 || !value.startsWith('(') || !value.endsWith(')')) {
      return { ok: false, message: '`in` filter value must be wrapped by parentheses' };
    }
    return { ok: true, filter: { column, op, value: `{${value.slice(1, -1)}}` } };
  }
  return { ok: true, filter: { column, op: op as FilterOperator, value: unquote(value) } };
}

/** Parses a binding's `filter`; an absent or blank filter is no filter. */
export function parseFilter(filter: unknown): FilterParse {
  if (filter === undefined || filter === null) return { ok: true, filters: [] };
  if (typeof filter !== 'string')
    return { ok: false, message: 'Error parsing `filter` params: expected a string' };
  if (filter.length > MAX_FILTER_LENGTH) {
    return {
      ok: false,
      message: `Error parsing \`filter\` params: longer than ${MAX_FILTER_LENGTH} characters`,
    };
  }
  if (filter.trim() === '') return { ok: true, filters: [] };
  const filters: Filter[] = [];
  for (const segment of splitTopLevel(filter.trim())) {
    const parsed = parseSegment(segment);
    if (!parsed.ok) return { ok: false, message: `Error parsing \`filter\` params: ${parsed.message}` };
    filters.push(parsed.filter);
  }
  return { ok: true, filters };
}
