/**
 * The query-string grammar of PostgREST: `select`, filters, `order`, `and`/`or` trees, `columns` and
 * `on_conflict`. Pure parsing into small syntax trees: nothing here knows the database; `plan.ts`
 * checks every name against the schema cache afterwards.
 *
 * Errors carry the position and what was expected, in PostgREST's wording
 * (`"failed to parse filter (eq)" (line 1, column 3)`), and become PGRST100 answers.
 */

export type JsonOperand = { key: string } | { index: number };
export interface JsonStep {
  arrow: '->' | '->>';
  operand: JsonOperand;
}
export interface FieldSyntax {
  name: string;
  jsonPath: JsonStep[];
}

export type SelectSyntax =
  | { kind: 'star' }
  | {
      kind: 'field';
      field: FieldSyntax;
      alias?: string;
      cast?: string;
      /** `col.sum()`, `count()` (field `*`): PostgREST's aggregates, parsed as its grammar has them. */
      aggregate?: AggregateFunction;
      aggregateCast?: string;
    }
  | {
      kind: 'embed';
      name: string;
      alias?: string;
      hint?: string;
      join?: 'inner' | 'left';
      spread: boolean;
      children: SelectSyntax[];
    };

export type AggregateFunction = 'sum' | 'avg' | 'count' | 'max' | 'min';
const AGGREGATES: readonly AggregateFunction[] = ['sum', 'avg', 'count', 'max', 'min'];

export const SIMPLE_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'isdistinct',
] as const;
export type SimpleOperator = (typeof SIMPLE_OPERATORS)[number];
export const QUANTIFIABLE = new Set<string>([
  'eq',
  'like',
  'ilike',
  'gt',
  'gte',
  'lt',
  'lte',
  'match',
  'imatch',
]);
export const FTS_OPERATORS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export type FtsOperator = (typeof FTS_OPERATORS)[number];
export type Trilean = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

export type Operation =
  | { kind: 'simple'; op: SimpleOperator; value: string; quantifier?: 'any' | 'all' }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: Trilean }
  | { kind: 'fts'; op: FtsOperator; language?: string; value: string };

export interface OpExpr {
  negate: boolean;
  operation: Operation;
}

export interface FilterSyntax {
  field: FieldSyntax;
  expr: OpExpr;
}

export type LogicSyntax =
  | { kind: 'filter'; filter: FilterSyntax }
  | { kind: 'tree'; op: 'and' | 'or'; negate: boolean; children: LogicSyntax[] };

export interface OrderSyntax {
  /** Set when ordering by a column of a to-one embedded resource: `clients(name).desc`. */
  relation?: string;
  field: FieldSyntax;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/**
 * Nesting allowed in `select` embeds and `and`/`or` trees: far beyond any real request, low enough
 * that parsing, planning and PostgreSQL's own parser stay well within their stacks.
 */
export const MAX_DEPTH = 32;

export class GrammarError extends Error {
  constructor(
    readonly what: string,
    readonly column: number,
    readonly details: string,
  ) {
    super(`"${what}" (line 1, column ${column})`);
    this.name = 'GrammarError';
  }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
function isIdentChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 128) {
    return (
      (code >= 97 && code <= 122) || // a-z
      (code >= 65 && code <= 90) || // A-Z
      (code >= 48 && code <= 57) || // 0-9
      code === 95 || // _
      code === 32 || // space
      code === 36 // $
    );
  }
  return LETTER_OR_DIGIT.test(ch);
}

function describeChar(ch: string | undefined): string {
  return ch === undefined ? 'end of input' : JSON.stringify(ch);
}

/**
 * Thrown while parsing and caught by `attempt` to backtrack: a plain object, not an Error, because
 * capturing a stack trace for every alternative tried would dominate the cost of parsing.
 */
class Backtrack {
  constructor(
    readonly column: number,
    readonly details: string,
  ) {}
}

/** A cursor over one parameter's text with PostgREST-like error reporting. */
class Cursor {
  pos = 0;
  private expected: string[] = [];
  private expectedAt = -1;

  constructor(
    readonly text: string,
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }
  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.pos);
  }
  take(token: string): boolean {
    if (this.startsWith(token)) {
      this.pos += token.length;
      return true;
    }
    this.expect(JSON.stringify(token));
    return false;
  }
  expect(what: string): void {
    if (this.pos > this.expectedAt) {
      this.expectedAt = this.pos;
      this.expected = [];
    }
    if (this.pos === this.expectedAt && !this.expected.includes(what)) this.expected.push(what);
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
  fail(message?: string): never {
    const at = Math.max(this.pos, this.expectedAt);
    const unexpected = `unexpected ${describeChar(this.text[at])}`;
    const expecting = at === this.expectedAt && this.expected.length > 0 ? this.expected : [];
    const details =
      message ??
      (expecting.length > 0
        ? `${unexpected} expecting ${expecting.slice(0, -1).join(', ')}${expecting.length > 1 ? ' or ' : ''}${expecting.at(-1)}`
        : unexpected);
    throw new Backtrack(at + 1, details);
  }
  /** Runs a whole parse, turning a failure into a GrammarError. */
  run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof Backtrack) throw new GrammarError(this.what, error.column, error.details);
      throw error;
    }
  }
  /** Runs `fn`; on failure restores the position and returns undefined. */
  attempt<T>(fn: () => T): T | undefined {
    const start = this.pos;
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof Backtrack)) throw error;
      this.pos = start;
      return undefined;
    }
  }
}

function quotedValue(c: Cursor): string | undefined {
  if (c.peek() !== '"') return undefined;
  c.pos++;
  let out = '';
  while (!c.done) {
    const ch = c.peek() as string;
    if (ch === '"') {
      c.pos++;
      return out;
    }
    if (ch === '\\') {
      c.pos++;
      if (c.done) break;
    }
    // PostgreSQL names cannot hold NUL
    if (c.peek() === '\u0000') return c.fail('unexpected NUL character');
    out += c.peek();
    c.pos++;
  }
  c.expect('"\\""');
  return c.fail();
}

function identifier(c: Cursor): string | undefined {
  const start = c.pos;
  while (!c.done && isIdentChar(c.peek() as string)) c.pos++;
  const name = c.text.slice(start, c.pos).trim();
  if (name === '') {
    c.pos = start;
    return undefined;
  }
  return name;
}

/** A field name: a double-quoted string or identifiers joined by dashes (not an arrow); or nothing. */
function tryFieldName(c: Cursor): string | undefined {
  if (c.peek() === '"') return quotedValue(c);
  const parts: string[] = [];
  for (;;) {
    const part = identifier(c);
    if (part === undefined) {
      if (parts.length === 0) return undefined;
      // a dash with no name after it is not part of this name
      c.pos--;
      break;
    }
    parts.push(part);
    if (c.peek() === '-' && c.peek(1) !== '>') {
      c.pos++;
      continue;
    }
    break;
  }
  return parts.join('-');
}

function fieldName(c: Cursor): string {
  const name = tryFieldName(c);
  if (name !== undefined) return name;
  c.expect('field name (* or [a..z0..9_$])');
  return c.fail();
}

const INDEX_END = ['->', '::', '.', ',', ')'];

function jsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = [];
  for (;;) {
    let arrow: JsonStep['arrow'];
    if (c.startsWith('->>')) arrow = '->>';
    else if (c.startsWith('->')) arrow = '->';
    else break;
    c.pos += arrow.length;
    const index = c.attempt(() => {
      const match = /^-?\d+/.exec(c.text.slice(c.pos));
      if (!match) return c.fail();
      const end = c.pos + match[0].length;
      if (end < c.text.length && !INDEX_END.some((token) => c.text.startsWith(token, end))) return c.fail();
      c.pos = end;
      return Number(match[0]);
    });
    if (index !== undefined && Number.isSafeInteger(index)) steps.push({ arrow, operand: { index } });
    else steps.push({ arrow, operand: { key: fieldName(c) } });
  }
  return steps;
}

function field(c: Cursor): FieldSyntax {
  c.skipSpaces();
  const name = fieldName(c);
  const path = jsonPath(c);
  c.skipSpaces();
  return { name, jsonPath: path };
}

function castName(c: Cursor): string {
  const start = c.pos;
  while (!c.done && isIdentChar(c.peek() as string)) c.pos++;
  const name = c.text.slice(start, c.pos).trim();
  if (!name) {
    c.expect('letter or digit');
    return c.fail();
  }
  return name;
}

function atItemEnd(c: Cursor): boolean {
  return c.done || c.peek() === ',' || c.peek() === ')';
}

function embedParams(c: Cursor): { hint?: string; join?: 'inner' | 'left' } {
  const out: { hint?: string; join?: 'inner' | 'left' } = {};
  for (let i = 0; i < 2 && c.peek() === '!'; i++) {
    c.pos++;
    const name = fieldName(c);
    if ((name === 'inner' || name === 'left') && out.join === undefined) out.join = name;
    else if (out.hint === undefined) out.hint = name;
    else c.fail(`unexpected "!${name}"`);
  }
  return out;
}

function selectItem(c: Cursor, depth: number): SelectSyntax {
  c.skipSpaces();
  if (c.startsWith('...')) {
    c.pos += 3;
    const name = fieldName(c);
    const params = embedParams(c);
    if (!c.take('(')) return c.fail();
    const children = selectList(c, depth + 1);
    if (!c.take(')')) return c.fail();
    c.skipSpaces();
    return { kind: 'embed', name, spread: true, children, ...params };
  }
  const start = c.pos;
  // `[alias:]count()[::cast]`, before embeds (PostgREST's pFieldSelect tries it second, after `*`).
  {
    const first = tryFieldName(c);
    let countAlias: string | undefined;
    if (first !== undefined && c.peek() === ':' && c.peek(1) !== ':') {
      c.pos++;
      countAlias = first;
    } else c.pos = start;
    if (c.startsWith('count()')) {
      c.pos += 'count()'.length;
      const item: SelectSyntax = { kind: 'field', field: { name: '*', jsonPath: [] }, aggregate: 'count' };
      if (countAlias !== undefined) item.alias = countAlias;
      if (c.startsWith('::')) {
        c.pos += 2;
        item.aggregateCast = castName(c);
      }
      c.skipSpaces();
      if (atItemEnd(c)) return item;
    }
    c.pos = start;
  }
  // An embed is `[alias:]name[!hint][!inner](...)`; anything else is a field (tried from the start).
  let name = tryFieldName(c);
  let alias: string | undefined;
  if (name !== undefined && c.peek() === ':' && c.peek(1) !== ':') {
    c.pos++;
    alias = name;
    name = tryFieldName(c);
  }
  let relation: SelectSyntax | undefined;
  if (name !== undefined && (c.peek() === '!' || c.peek() === '(')) {
    const params = embedParams(c);
    if (c.peek() === '(') {
      c.pos++;
      const children = selectList(c, depth + 1);
      if (!c.take(')')) return c.fail();
      c.skipSpaces();
      relation = { kind: 'embed', name, spread: false, children, ...params };
      if (alias !== undefined) relation.alias = alias;
    }
  }
  if (relation) return relation;
  c.pos = start;
  if (c.peek() === '*') {
    c.pos++;
    c.skipSpaces();
    if (!atItemEnd(c)) {
      c.expect('","');
      c.expect('")"');
      c.expect('end of input');
      return c.fail();
    }
    return { kind: 'star' };
  }
  let fieldAlias: string | undefined;
  const maybeAlias = tryFieldName(c);
  if (maybeAlias !== undefined && c.peek() === ':' && c.peek(1) !== ':') {
    c.pos++;
    fieldAlias = maybeAlias;
  } else c.pos = start;
  const parsed = field(c);
  const item: SelectSyntax = { kind: 'field', field: parsed };
  if (fieldAlias !== undefined) item.alias = fieldAlias;
  if (c.startsWith('::')) {
    c.pos += 2;
    item.cast = castName(c);
    c.skipSpaces();
  }
  // `.sum()` and the others, then a cast of the result.
  const aggregate = AGGREGATES.find((name) => c.startsWith(`.${name}()`));
  if (aggregate !== undefined) {
    c.pos += aggregate.length + 3;
    item.aggregate = aggregate;
    if (c.startsWith('::')) {
      c.pos += 2;
      item.aggregateCast = castName(c);
    }
    c.skipSpaces();
  }
  if (!atItemEnd(c)) {
    for (const token of ['"->>"', '"->"', '"::"', '"."', '","', '")"', 'end of input']) c.expect(token);
    return c.fail();
  }
  return item;
}

function selectList(c: Cursor, depth: number): SelectSyntax[] {
  if (depth > MAX_DEPTH) return c.fail(`embedded resources nest deeper than ${MAX_DEPTH} levels`);
  c.skipSpaces();
  if (depth > 0 && c.peek() === ')') return [];
  const items = [selectItem(c, depth)];
  while (c.peek() === ',') {
    c.pos++;
    items.push(selectItem(c, depth));
  }
  return items;
}

export function parseSelect(text: string): SelectSyntax[] {
  const c = new Cursor(text, `failed to parse select parameter (${text})`);
  return c.run(() => {
    if (text.trim() === '') return [];
    const items = selectList(c, 0);
    if (!c.done) {
      c.expect('","');
      c.expect('end of input');
      c.fail();
    }
    return items;
  });
}

function listValue(c: Cursor): string[] {
  c.skipSpaces();
  if (!c.take('(')) return c.fail();
  const values: string[] = [];
  c.skipSpaces();
  if (c.peek() === ')') {
    c.pos++;
    c.skipSpaces();
    return values;
  }
  for (;;) {
    const quoted = c.attempt(() => {
      const value = quotedValue(c);
      if (value === undefined || (c.peek() !== ',' && c.peek() !== ')')) return c.fail();
      return value;
    });
    if (quoted !== undefined) values.push(quoted);
    else {
      const start = c.pos;
      while (!c.done && c.peek() !== ',' && c.peek() !== ')') c.pos++;
      values.push(c.text.slice(start, c.pos));
    }
    if (c.peek() === ',') {
      c.pos++;
      continue;
    }
    if (!c.take(')')) return c.fail();
    c.skipSpaces();
    return values;
  }
}

const TRILEANS: Trilean[] = ['null', 'not_null', 'true', 'false', 'unknown'];

function opExpr(c: Cursor, value: (c: Cursor) => string): OpExpr {
  let negate = false;
  if (c.startsWith('not.')) {
    negate = true;
    c.pos += 4;
  }
  if (c.startsWith('in.')) {
    c.pos += 3;
    return { negate, operation: { kind: 'in', values: listValue(c) } };
  }
  if (c.startsWith('is.')) {
    c.pos += 3;
    const rest = value(c).toLowerCase();
    const trilean = TRILEANS.find((t) => t === rest);
    if (!trilean) {
      c.pos -= rest.length;
      c.expect('null or trilean value (unknown, true, false)');
      return c.fail();
    }
    return { negate, operation: { kind: 'is', value: trilean } };
  }
  const match = /^([a-z]+)(?:\(([^)]*)\))?\./i.exec(c.text.slice(c.pos));
  if (!match) {
    c.expect('operator (eq, gt, ...)');
    return c.fail();
  }
  const [whole, name = '', modifier] = match;
  if ((FTS_OPERATORS as readonly string[]).includes(name)) {
    if (modifier !== undefined && !/^[\p{L}\p{N}_ $]+$/u.test(modifier)) {
      c.pos += name.length + 1;
      c.expect('letter or digit');
      return c.fail();
    }
    c.pos += whole.length;
    const operation: Operation = { kind: 'fts', op: name as FtsOperator, value: value(c) };
    if (modifier !== undefined) operation.language = modifier.trim();
    return { negate, operation };
  }
  if (!(SIMPLE_OPERATORS as readonly string[]).includes(name)) {
    return c.fail(`unknown single value operator ${name}`);
  }
  let quantifier: 'any' | 'all' | undefined;
  if (modifier !== undefined) {
    if ((modifier !== 'any' && modifier !== 'all') || !QUANTIFIABLE.has(name)) {
      return c.fail(`unknown single value operator ${name}(${modifier})`);
    }
    quantifier = modifier;
  }
  c.pos += whole.length;
  const operation: Operation = { kind: 'simple', op: name as SimpleOperator, value: value(c) };
  if (quantifier) operation.quantifier = quantifier;
  return { negate, operation };
}

const restOfText = (c: Cursor): string => {
  const value = c.text.slice(c.pos);
  c.pos = c.text.length;
  return value;
};

export function parseFilterValue(text: string): OpExpr {
  const c = new Cursor(text, `failed to parse filter (${text})`);
  return c.run(() => {
    const expr = opExpr(c, restOfText);
    if (!c.done) {
      c.expect('end of input');
      c.fail();
    }
    return expr;
  });
}

/** `a.b.c->x`: the embed path (a, b) and the field (c with its JSON path). */
export function parseFilterKey(text: string): { path: string[]; field: FieldSyntax } {
  const c = new Cursor(text, `failed to parse tree path (${text})`);
  return c.run(() => {
    const names = [fieldName(c)];
    while (c.peek() === '.') {
      c.pos++;
      names.push(fieldName(c));
    }
    const path = jsonPath(c);
    if (!c.done) {
      for (const token of ['"."', '"->"', '"->>"', 'end of input']) c.expect(token);
      c.fail();
    }
    const name = names.pop() as string;
    return { path: names, field: { name, jsonPath: path } };
  });
}

/** The embed path of a key ending in a reserved word: `actors.order` → [actors]. */
export function parseEmbedPath(key: string, reserved: string): string[] {
  if (key === reserved) return [];
  const prefix = key.slice(0, -(reserved.length + 1));
  const c = new Cursor(prefix, `failed to parse tree path (${key})`);
  return c.run(() => {
    const names = [fieldName(c)];
    while (c.peek() === '.') {
      c.pos++;
      names.push(fieldName(c));
    }
    if (!c.done) {
      c.expect('"."');
      c.expect('end of input');
      c.fail();
    }
    return names;
  });
}

export function parseOrder(text: string): OrderSyntax[] {
  const c = new Cursor(text, `failed to parse order (${text})`);
  return c.run(() => {
    const terms: OrderSyntax[] = [];
    for (;;) {
      c.skipSpaces();
      const relationTerm = c.attempt(() => {
        const relation = fieldName(c);
        if (!c.take('(')) return c.fail();
        const inner = field(c);
        if (!c.take(')')) return c.fail();
        return { relation, field: inner };
      });
      const term: OrderSyntax = relationTerm ?? { field: field(c) };
      if (c.startsWith('.asc') || c.startsWith('.desc')) {
        const direction = c.startsWith('.asc') ? 'asc' : 'desc';
        c.pos += direction.length + 1;
        term.direction = direction;
      }
      if (c.startsWith('.nullsfirst') || c.startsWith('.nullslast')) {
        const nulls = c.startsWith('.nullsfirst') ? 'first' : 'last';
        c.pos += nulls === 'first' ? 11 : 10;
        term.nulls = nulls;
      }
      c.skipSpaces();
      terms.push(term);
      if (c.peek() === ',') {
        c.pos++;
        continue;
      }
      if (!c.done) {
        if (c.peek() === '.') {
          c.pos++;
          for (const token of term.direction ? [] : ['"asc"', '"desc"']) c.expect(token);
          if (!term.nulls) {
            c.expect('"nullsfirst"');
            c.expect('"nullslast"');
          }
        } else {
          c.expect('","');
          c.expect('end of input');
        }
        c.fail();
      }
      return terms;
    }
  });
}

function logicValue(c: Cursor): string {
  const quoted = c.attempt(() => {
    const value = quotedValue(c);
    if (value === undefined || (c.peek() !== ',' && c.peek() !== ')')) return c.fail();
    return value;
  });
  if (quoted !== undefined) return quoted;
  if (c.peek() === '{') {
    const end = c.text.indexOf('}', c.pos);
    const inner = end === -1 ? '' : c.text.slice(c.pos + 1, end);
    if (end !== -1 && !inner.includes('{')) {
      const value = c.text.slice(c.pos, end + 1);
      c.pos = end + 1;
      return value;
    }
  }
  const start = c.pos;
  while (!c.done && c.peek() !== ',' && c.peek() !== ')') c.pos++;
  return c.text.slice(start, c.pos);
}

function logicTree(c: Cursor, depth = 0): LogicSyntax {
  if (depth > MAX_DEPTH) return c.fail(`logic trees nest deeper than ${MAX_DEPTH} levels`);
  c.skipSpaces();
  const tree = c.attempt(() => {
    let negate = false;
    if (c.startsWith('not.')) {
      negate = true;
      c.pos += 4;
    }
    let op: 'and' | 'or';
    if (c.startsWith('and(')) op = 'and';
    else if (c.startsWith('or(')) op = 'or';
    else {
      c.expect('logic operator (and, or)');
      return c.fail();
    }
    c.pos += op.length + 1;
    const children = [logicTree(c, depth + 1)];
    for (;;) {
      c.skipSpaces();
      if (c.peek() === ',') {
        c.pos++;
        children.push(logicTree(c, depth + 1));
        continue;
      }
      if (!c.take(')')) return c.fail();
      c.skipSpaces();
      return { kind: 'tree' as const, op, negate, children };
    }
  });
  if (tree) return tree;
  const parsedField = field(c);
  if (!c.take('.')) {
    c.expect('negation operator (not)');
    return c.fail();
  }
  const expr = opExpr(c, logicValue);
  c.skipSpaces();
  return { kind: 'filter', filter: { field: parsedField, expr } };
}

/** `or=(a.eq.1,b.gt.2)` with the key's operator: the value is parsed as `or(a.eq.1,b.gt.2)`. */
export function parseLogic(op: 'and' | 'or', negate: boolean, value: string): LogicSyntax {
  const text = `${negate ? 'not.' : ''}${op}${value}`;
  const c = new Cursor(text, `failed to parse logic tree (${value})`);
  return c.run(() => {
    const tree = logicTree(c);
    if (!c.done || tree.kind !== 'tree') {
      c.expect('end of input');
      c.fail();
    }
    return tree;
  });
}

/** A logic key: `or`, `not.and`, `actors.or`, `actors.not.or` → embed path, operator, negation. */
export function parseLogicKey(key: string): { path: string[]; op: 'and' | 'or'; negate: boolean } {
  const c = new Cursor(key, `failed to parse logic path (${key})`);
  return c.run(() => {
    const names = [fieldName(c)];
    while (c.peek() === '.') {
      c.pos++;
      names.push(fieldName(c));
    }
    if (!c.done) c.fail();
    const op = names.pop() as 'and' | 'or';
    let negate = false;
    if (names.at(-1) === 'not') {
      names.pop();
      negate = true;
    }
    return { path: names, op, negate };
  });
}

export function parseColumns(text: string, what: 'columns' | 'on_conflict'): string[] {
  const c = new Cursor(text, `failed to parse ${what} parameter (${text})`);
  return c.run(() => {
    const names: string[] = [];
    for (;;) {
      c.skipSpaces();
      names.push(fieldName(c));
      c.skipSpaces();
      if (c.peek() === ',') {
        c.pos++;
        continue;
      }
      if (!c.done) {
        c.expect('","');
        c.expect('end of input');
        c.fail();
      }
      return names;
    }
  });
}
