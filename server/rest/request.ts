import { restErrors } from './errors.ts';
import {
  type FilterSyntax,
  FTS_OPERATORS,
  GrammarError,
  type LogicSyntax,
  type OrderSyntax,
  parseColumns,
  parseEmbedPath,
  parseFilterKey,
  parseFilterValue,
  parseLogic,
  parseLogicKey,
  parseOrder,
  parseSelect,
  type SelectSyntax,
  SIMPLE_OPERATORS,
} from './grammar.ts';
import { DEFAULT_SCHEMAS } from './schema-cache.ts';

/**
 * Stage 1 of the pipeline: an HTTP request becomes an `ApiRequest` — what is asked for, in
 * PostgREST's terms, with every query parameter, header and body parsed and checked for form.
 * Nothing here knows the schema; names are checked in `plan.ts`.
 */

export type Action =
  | { kind: 'read'; head: boolean }
  | { kind: 'insert' }
  | { kind: 'update' }
  | { kind: 'delete' }
  | { kind: 'call'; method: 'GET' | 'HEAD' | 'POST' };

export interface Preferences {
  return?: 'minimal' | 'headers-only' | 'representation';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  timezone?: string;
  maxAffected?: number;
  /** `tx=rollback`: run the request, answer as usual, then roll its transaction back. */
  tx?: 'commit' | 'rollback';
  /** Preferences not understood (reported with handling=strict). */
  invalid: string[];
}

export type MediaKind = 'json' | 'object' | 'csv';
export interface MediaChoice {
  kind: MediaKind;
  stripNulls: boolean;
  /**
   * `application/vnd.pgrst.plan[+json|+text]` (PGRST_DB_PLAN_ENABLED): the statement's EXPLAIN instead
   * of its rows; `kind` is then the `for` media type the plan is of (decision 153).
   */
  plan?: PlanChoice;
}

export type PlanOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal';
export interface PlanChoice {
  format: 'json' | 'text';
  /** The `for` media type as the Content-Type names it (`application/json`, `text/csv` …). */
  forMime: string;
  options: PlanOption[];
}

const PLAN_OPTIONS: readonly PlanOption[] = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

/** The request body, always as JSON text (CSV and form bodies are converted) plus its parsed form. */
export interface Payload {
  raw: string;
  value: unknown;
  /**
   * A raw body for a function's single unnamed parameter (PostgREST's RawPay): `text/plain` (text),
   * `text/xml` (xml) or `application/octet-stream` (bytea, `raw` being the bytes' hex digits).
   */
  media?: 'text' | 'xml' | 'bytea';
  /** Keys of the object, or union of keys of the objects of an array. */
  keys: string[];
}

export interface Paging {
  offset?: number;
  limit?: number;
}

export interface ApiRequest {
  action: Action;
  /** The exposed schema the request works in (Accept-Profile / Content-Profile, else the first). */
  schema: string;
  /**
   * PostgREST's `iNegotiatedByProfile`: a profile header chose the schema, or more than one schema is
   * exposed. The answer then names its schema in `Content-Profile`.
   */
  profileNegotiated: boolean;
  /** Relation or function name. */
  target: string;
  select: SelectSyntax[];
  /** Whether `select` was given (mutations return nothing unless asked). */
  selectGiven: boolean;
  filters: { path: string[]; filter: FilterSyntax }[];
  logic: { path: string[]; tree: LogicSyntax }[];
  order: { path: string[]; terms: OrderSyntax[] }[];
  /** limit/offset per embed path (joined with '.'; '' is the top level). */
  paging: Map<string, Paging>;
  /** The `Range` header (GET only), as offset and limit. */
  range?: Paging;
  columns?: string[];
  onConflict?: string[];
  /** Function arguments from the query string (GET/HEAD calls). */
  args: [string, string][];
  prefer: Preferences;
  media: MediaChoice;
  payload?: Payload;
}

export interface HttpInput {
  method: string;
  /** 'relation' for /:name, 'rpc' for /rpc/:name. */
  route: 'relation' | 'rpc';
  name: string;
  /** The raw query string without '?'. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string | undefined;
}

function header(headers: HttpInput['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict', 'apikey']);
const EMBEDDABLE = new Set(['order', 'limit', 'offset', 'and', 'or']);

function lastSegment(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot === -1 ? key : key.slice(dot + 1);
}

/** Whether a query value reads as a filter (an operator first), as PostgREST decides for RPC GET. */
function looksLikeFilter(value: string): boolean {
  const [first = '', second] = value.split('.');
  if (first === 'not' && second !== undefined) return true;
  if ((first === 'is' || first === 'in') && second !== undefined) return true;
  const op = first.replace(/\((any|all)\)$/, '');
  if ((SIMPLE_OPERATORS as readonly string[]).includes(op) && second !== undefined) return true;
  const fts = value.split('(')[0] ?? '';
  return (
    (FTS_OPERATORS as readonly string[]).includes(fts) || (FTS_OPERATORS as readonly string[]).includes(op)
  );
}

function grammar<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof GrammarError) throw restErrors.queryParam(error.message, error.details);
    throw error;
  }
}

function parsePaging(key: string, value: string, which: 'limit' | 'offset'): number {
  if (/^\s*\d+\s*$/.test(value)) {
    const number = Number(value);
    if (Number.isSafeInteger(number)) return number;
  }
  if (which === 'limit' && /^\s*-\d+\s*$/.test(value)) {
    throw restErrors.invalidRange('Limit should be greater than or equal to zero.');
  }
  throw restErrors.queryParam(
    `"failed to parse ${which} parameter (${value})" (line 1, column 1)`,
    `${key} must be a whole number greater than or equal to zero`,
  );
}

export function parsePreferences(values: string | undefined): Preferences {
  const prefer: Preferences = { invalid: [] };
  if (!values) return prefer;
  for (const raw of values.split(',')) {
    const token = raw.trim();
    if (!token) continue;
    const eq = token.indexOf('=');
    const key = eq === -1 ? token : token.slice(0, eq).trim();
    const value = eq === -1 ? '' : token.slice(eq + 1).trim();
    switch (key) {
      case 'return':
        if (value === 'minimal' || value === 'headers-only' || value === 'representation')
          prefer.return = value;
        else prefer.invalid.push(token);
        break;
      case 'count':
        if (value === 'exact' || value === 'planned' || value === 'estimated') prefer.count = value;
        else prefer.invalid.push(token);
        break;
      case 'resolution':
        if (value === 'merge-duplicates' || value === 'ignore-duplicates') prefer.resolution = value;
        else prefer.invalid.push(token);
        break;
      case 'missing':
        if (value === 'default' || value === 'null') prefer.missing = value;
        else prefer.invalid.push(token);
        break;
      case 'handling':
        if (value === 'strict' || value === 'lenient') prefer.handling = value;
        else prefer.invalid.push(token);
        break;
      case 'timezone':
        if (value) prefer.timezone = value;
        else prefer.invalid.push(token);
        break;
      case 'max-affected':
        if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) prefer.maxAffected = Number(value);
        else prefer.invalid.push(token);
        break;
      case 'tx':
        // PostgREST's `db-tx-end = commit-allow-override`: a client may ask for its own request to be
        // rolled back (dry runs, tests). It can only undo its own writes, so it is always allowed.
        if (value === 'commit' || value === 'rollback') prefer.tx = value;
        else prefer.invalid.push(token);
        break;
      default:
        prefer.invalid.push(token);
    }
  }
  return prefer;
}

interface AcceptItem {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(value: string): AcceptItem[] {
  const items: AcceptItem[] = [];
  for (const part of value.split(',')) {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const param of rest) {
      const eq = param.indexOf('=');
      if (eq === -1) continue;
      const name = param.slice(0, eq).trim().toLowerCase();
      const val = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name === 'q') q = Number.isFinite(Number(val)) ? Number(val) : 0;
      else params[name] = val;
    }
    items.push({ type: type.toLowerCase(), params, q });
  }
  return items.filter((i) => i.q > 0).sort((a, b) => b.q - a.q);
}

const PLAN_TYPES = new Set([
  'application/vnd.pgrst.plan',
  'application/vnd.pgrst.plan+text',
  'application/vnd.pgrst.plan+json',
]);

/** The media type a plan is `for`, as PostgREST's toMime writes it. */
function mimeOf(media: MediaChoice): string {
  if (media.kind === 'csv') return 'text/csv';
  if (media.kind === 'object') {
    return media.stripNulls
      ? 'application/vnd.pgrst.object+json;nulls=stripped'
      : 'application/vnd.pgrst.object+json';
  }
  return media.stripNulls ? 'application/vnd.pgrst.array+json;nulls=stripped' : 'application/json';
}

/** Content negotiation: the first acceptable media type we can produce, else PGRST107 (406). */
export function negotiate(accept: string | undefined, options: { plans?: boolean } = {}): MediaChoice {
  if (!accept?.trim()) return { kind: 'json', stripNulls: false };
  const items = parseAccept(accept);
  for (const item of items) {
    const stripNulls = item.params.nulls === 'stripped';
    if (options.plans && PLAN_TYPES.has(item.type)) {
      // PostgREST's decodeMediaType: `for` defaults to application/json; options are `|`-separated.
      const forMime = (item.params.for ?? 'application/json').toLowerCase();
      const target = negotiate(forMime);
      const requested = (item.params.options ?? '').split('|');
      return {
        ...target,
        plan: {
          format: item.type === 'application/vnd.pgrst.plan+json' ? 'json' : 'text',
          forMime: mimeOf(target),
          options: PLAN_OPTIONS.filter((option) => requested.includes(option)),
        },
      };
    }
    switch (item.type) {
      case '*/*':
      case 'application/*':
      case 'application/json':
        return { kind: 'json', stripNulls: false };
      case 'application/vnd.pgrst.array+json':
      case 'application/vnd.pgrst.array':
        return { kind: 'json', stripNulls };
      case 'application/vnd.pgrst.object+json':
      case 'application/vnd.pgrst.object':
        return { kind: 'object', stripNulls };
      case 'text/csv':
      case 'text/*':
        return { kind: 'csv', stripNulls: false };
    }
  }
  throw restErrors.mediaType(items.length > 0 ? items.map((i) => i.type) : [accept]);
}

function parseRangeHeader(value: string | undefined): Paging | undefined {
  if (!value) return undefined;
  const match = /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(value);
  if (!match) return undefined;
  const from = Number(match[1]);
  if (!Number.isSafeInteger(from)) return undefined;
  if (match[2] === '') return { offset: from };
  const to = Number(match[2]);
  if (!Number.isSafeInteger(to)) return undefined;
  if (to < from) {
    throw restErrors.invalidRange(
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  return { offset: from, limit: to - from + 1 };
}

/** Splits a CSV text into records (RFC 4180: quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"' && field === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      wasQuoted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      wasQuoted = false;
    } else field += ch;
  }
  if (quoted) throw restErrors.invalidBody('Invalid CSV: unterminated quoted field');
  if (field !== '' || row.length > 0 || wasQuoted) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function payloadFromObjects(value: unknown, raw: string, requireUniformKeys: boolean): Payload {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(value)) return { raw, value, keys: Object.keys(value as object) };
  if (Array.isArray(value)) {
    if (!value.every(isObject)) throw restErrors.invalidBody('All array elements must be objects');
    const keys = new Set<string>();
    let first: string | undefined;
    for (const item of value) {
      const own = Object.keys(item as object);
      for (const key of own) keys.add(key);
      if (requireUniformKeys) {
        const signature = [...own].sort().join('\u0000');
        first ??= signature;
        if (signature !== first) throw restErrors.invalidBody('All object keys must match');
      }
    }
    return { raw, value, keys: [...keys] };
  }
  throw restErrors.invalidBody('Empty or invalid json');
}

/** The raw media types a function call's body may have, and the parameter type each goes to. */
const RAW_MEDIA: Record<string, Payload['media']> = {
  'text/plain': 'text',
  'text/xml': 'xml',
  'application/octet-stream': 'bytea',
};

function parsePayload(input: HttpInput, action: Action, columnsGiven: boolean): Payload | undefined {
  const body = input.body ?? '';
  const contentType = (header(input.headers, 'content-type') ?? 'application/json')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (action.kind === 'call') {
    const media = RAW_MEDIA[contentType ?? ''];
    if (media) return { raw: body, value: body, keys: [], media };
    if (body.trim() === '') return { raw: '{}', value: {}, keys: [] };
  }
  if (contentType === 'text/csv') {
    const rows = parseCsv(body);
    const [head, ...records] = rows;
    if (!head) throw restErrors.invalidBody('Invalid CSV: a header row is required');
    const objects = records.map((record) => {
      if (record.length !== head.length)
        throw restErrors.invalidBody('All lines must have same number of fields');
      return Object.fromEntries(head.map((name, i) => [name, record[i] === 'NULL' ? null : record[i]]));
    });
    const raw = JSON.stringify(action.kind === 'insert' ? objects : (objects[0] ?? {}));
    return { raw, value: JSON.parse(raw), keys: head };
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    const object: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(body)) object[key] = value;
    const raw = JSON.stringify(object);
    return { raw, value: object, keys: Object.keys(object) };
  }
  if (contentType !== 'application/json' && !contentType?.endsWith('+json')) {
    throw restErrors.invalidBody(`Content-Type not acceptable: ${contentType}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw restErrors.invalidBody('Empty or invalid json');
  }
  if (action.kind === 'call') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      // only a function with a single unnamed json parameter can take this; plan.ts decides
      return { raw: body, value, keys: [] };
    }
    return { raw: body, value, keys: Object.keys(value) };
  }
  if (action.kind === 'update' && Array.isArray(value)) {
    throw restErrors.invalidBody('Expected a JSON object for the columns to update');
  }
  return payloadFromObjects(value, body, action.kind === 'insert' && !columnsGiven);
}

export interface ParseOptions {
  /** PGRST_DB_PLAN_ENABLED: plan media types take part in content negotiation. */
  plans?: boolean;
  /** PGRST_DB_SCHEMAS: the exposed schemas, the first the default (default: `public`). */
  schemas?: readonly string[];
}

/**
 * PostgREST's getSchema: writes (POST, PATCH, PUT, DELETE — RPC POST too) name their schema in
 * `Content-Profile`, every other method (GET, HEAD — RPC too) in `Accept-Profile`; a schema not
 * exposed is PGRST106.
 * The value is compared as it arrives (the HTTP parser has trimmed it), as upstream compares it.
 */
export function profileOf(
  headers: HttpInput['headers'],
  method: string,
  schemas: readonly string[],
): string | undefined {
  const writes = method === 'POST' || method === 'PATCH' || method === 'PUT' || method === 'DELETE';
  const profile = header(headers, writes ? 'content-profile' : 'accept-profile');
  if (profile !== undefined && !schemas.includes(profile))
    throw restErrors.unacceptableSchema(profile, schemas);
  return profile;
}

/** Parses an HTTP request to the data API. Throws ApiError (PGRST1xx) for malformed requests. */
export function parseApiRequest(input: HttpInput, options: ParseOptions = {}): ApiRequest {
  const method = input.method.toUpperCase();
  // upstream checks the schema before the method (getSchema, then getAction)
  const schemas = options.schemas ?? DEFAULT_SCHEMAS;
  const profile = profileOf(input.headers, method, schemas);
  let action: Action;
  if (input.route === 'rpc') {
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') throw restErrors.invalidRpcMethod(method);
    action = { kind: 'call', method };
  } else if (method === 'GET' || method === 'HEAD') action = { kind: 'read', head: method === 'HEAD' };
  else if (method === 'POST') action = { kind: 'insert' };
  else if (method === 'PATCH') action = { kind: 'update' };
  else if (method === 'DELETE') action = { kind: 'delete' };
  else throw restErrors.unsupportedMethod(method);

  const request: ApiRequest = {
    action,
    schema: profile ?? (schemas[0] as string),
    // without a profile header, the default schema counts as negotiated when there was a choice
    profileNegotiated: profile !== undefined || schemas.length !== 1,
    target: input.name,
    select: [{ kind: 'star' }],
    selectGiven: false,
    filters: [],
    logic: [],
    order: [],
    paging: new Map(),
    args: [],
    prefer: parsePreferences(header(input.headers, 'prefer')),
    media: negotiate(header(input.headers, 'accept'), options),
  };
  if (request.prefer.handling === 'strict' && request.prefer.invalid.length > 0) {
    throw restErrors.invalidPreferences(request.prefer.invalid);
  }

  const seen = new Set<string>();
  const once = (key: string) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  for (const [key, value] of new URLSearchParams(input.query)) {
    if (RESERVED.has(key)) {
      if (!once(key)) continue;
      if (key === 'select') {
        request.select = grammar(() => parseSelect(value));
        request.selectGiven = true;
      } else if (key === 'columns') request.columns = grammar(() => parseColumns(value, 'columns'));
      else if (key === 'on_conflict') request.onConflict = grammar(() => parseColumns(value, 'on_conflict'));
      continue;
    }
    const last = lastSegment(key);
    if (EMBEDDABLE.has(last)) {
      if (last === 'order') {
        const path = grammar(() => parseEmbedPath(key, 'order'));
        request.order.push({ path, terms: grammar(() => parseOrder(value)) });
      } else if (last === 'limit' || last === 'offset') {
        const path = grammar(() => parseEmbedPath(key, last)).join('.');
        const paging = request.paging.get(path) ?? {};
        paging[last] = parsePaging(key, value, last);
        request.paging.set(path, paging);
      } else {
        const { path, op, negate } = grammar(() => parseLogicKey(key));
        request.logic.push({ path, tree: grammar(() => parseLogic(op, negate, value)) });
      }
      continue;
    }
    if (action.kind === 'call' && action.method !== 'POST' && !key.includes('.') && !looksLikeFilter(value)) {
      request.args.push([key, value]);
      continue;
    }
    const { path, field } = grammar(() => parseFilterKey(key));
    const expr = grammar(() => parseFilterValue(value));
    request.filters.push({ path, filter: { field, expr } });
  }

  if (method === 'GET') request.range = parseRangeHeader(header(input.headers, 'range'));
  if (action.kind === 'insert' || action.kind === 'update' || (action.kind === 'call' && method === 'POST')) {
    request.payload = parsePayload(input, action, request.columns !== undefined);
  }
  return request;
}
