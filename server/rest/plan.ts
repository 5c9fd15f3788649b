import { restErrors } from './errors.ts';
import type {
  AggregateFunction,
  FieldSyntax,
  FilterSyntax,
  JsonStep,
  LogicSyntax,
  OpExpr,
  OrderSyntax,
  SelectSyntax,
} from './grammar.ts';
import type { ApiRequest, MediaChoice, Paging, Payload, Preferences } from './request.ts';
import {
  type Column,
  type ExposedSchema,
  type Relation,
  type Relationship,
  type Routine,
  resolveTypeName,
  type SchemaCache,
} from './schema-cache.ts';

/**
 * Stage 2 of the pipeline: an `ApiRequest` checked against the schema cache becomes a `Plan`. Every
 * name in it is a column, relation, relationship or function that exists; every value is still just
 * a value (it becomes a bind parameter in `query.ts`). Errors here are PostgREST's PGRST1xx/2xx.
 */

/** What a read node selects from: a relation, or a function's result / a mutation's rows. */
export interface Source {
  /** Name used in messages and for relationship lookups (null: no relationships). */
  name: string;
  relationshipsOf: string | null;
  columns: Column[];
  columnsByName: Map<string, Column>;
  relation?: Relation;
}

export interface FieldRef {
  column: Column;
  jsonPath: JsonStep[];
}

export type Condition =
  | { kind: 'filter'; field: FieldRef; expr: OpExpr }
  | { kind: 'embedNull'; embed: EmbedPlan; isNull: boolean }
  | { kind: 'tree'; op: 'and' | 'or'; negate: boolean; children: Condition[] };

export interface OrderPlan {
  field: FieldRef;
  /** Ordering by a column of a to-one embedded resource. */
  embed?: EmbedPlan;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export type SelectPlan =
  | {
      kind: 'field';
      /** Absent for `count()`, which counts rows. */
      field?: FieldRef;
      key: string;
      cast?: { schema: string; name: string };
      /** PGRST_DB_AGGREGATES_ENABLED: the aggregate applied, and the cast of its result. */
      aggregate?: AggregateFunction;
      aggregateCast?: { schema: string; name: string };
    }
  | { kind: 'embed'; embed: EmbedPlan };

export interface ReadNode {
  source: Source;
  alias: string;
  select: SelectPlan[];
  embeds: EmbedPlan[];
  conditions: Condition[];
  order: OrderPlan[];
  offset?: number;
  limit?: number;
}

export interface EmbedPlan {
  /** Output key (alias, else the requested name). */
  key: string;
  name: string;
  relationship: Relationship;
  toOne: boolean;
  inner: boolean;
  spread: boolean;
  node: ReadNode;
  /** SQL alias of the lateral join. */
  lateral: string;
  junctionAlias?: string;
}

export interface InsertGroup {
  columns: Column[];
  /** Row numbers (1-based) of the payload array in this group; undefined = all rows. */
  rows?: number[];
}

export type Mutation =
  | {
      kind: 'insert';
      relation: Relation;
      groups: InsertGroup[];
      payload: Payload;
      onConflict?: { columns: string[]; action: 'update' | 'nothing' };
    }
  | { kind: 'update'; relation: Relation; columns: Column[]; payload: Payload; root: ReadNode }
  | { kind: 'delete'; relation: Relation; root: ReadNode };

export interface CallPlan {
  routine: Routine;
  /** The parameters given, in declaration order. */
  args: Routine['params'];
  /** JSON object text with the arguments (or the whole body for a single unnamed json parameter). */
  argsJson: string;
  /** The arguments came in the query string (GET, HEAD), each a text value, not in a JSON body. */
  fromQuery: boolean;
  readOnly: boolean;
}

export type Plan =
  | { kind: 'read'; read: ReadNode; head: boolean; countable: boolean }
  | {
      kind: 'mutate';
      mutation: Mutation;
      /** Representation to read back (return=representation / headers-only). */
      read?: ReadNode;
      /** Columns the read-back needs from the changed rows. */
      returning: string[];
    }
  | { kind: 'call'; call: CallPlan; read?: ReadNode; head: boolean; countable: boolean };

export interface PlanContext {
  cache: SchemaCache;
  maxRows: number;
  /** PostgREST's db-aggregates-enabled (PGRST_DB_AGGREGATES_ENABLED), off by default. */
  aggregates?: boolean;
}

/** Planning one request: what its schema holds (every name is looked up there). */
interface Ctx {
  cache: ExposedSchema;
  maxRows: number;
  aggregates: boolean | undefined;
}

export interface PlannedRequest {
  plan: Plan;
  /** The exposed schema the request works in. */
  schema: ExposedSchema;
  /** Whether the answer names its schema in Content-Profile (`ApiRequest.profileNegotiated`). */
  profileNegotiated: boolean;
  media: MediaChoice;
  prefer: Preferences;
  /** Preferences that took effect (for Preference-Applied). */
  applied: string[];
  /** The top level's offset (for Content-Range). */
  offset: number;
  /** The top level's row limit, for results paged outside a read node (set-returning scalars). */
  limit?: number;
}

// ---------------------------------------------------------------------------------------------

/** 1 − (edit distance with transpositions) / length of the longer name. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= y.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const row = rows[i] as number[];
      const prev = rows[i - 1] as number[];
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = d;
    }
  }
  const distance = (rows[x.length] as number[])[y.length] as number;
  return 1 - distance / Math.max(x.length, y.length, 1);
}

export function closest(name: string, candidates: Iterable<string>, min = 0.6): string | undefined {
  let best: string | undefined;
  let score = min;
  for (const candidate of candidates) {
    const s = similarity(name, candidate);
    if (s >= score) {
      best = candidate;
      score = s;
    }
  }
  return best;
}

/**
 * Limits no real request comes near, keeping every statement well inside what PostgreSQL plans
 * quickly (a SELECT list may hold at most 1664 entries; hundreds of lateral joins exhaust memory).
 */
export const MAX_EMBEDS = 50;
export const MAX_SELECTED = 1000;

/** Our own SQL aliases: t0 is every statement's root, t1... the embedded nodes, e1... their joins. */
class Aliases {
  private n = 1;
  private e = 0;
  node(): string {
    return `t${this.n++}`;
  }
  lateral(): string {
    if (this.e >= MAX_EMBEDS)
      throw restErrors.tooComplex(`At most ${MAX_EMBEDS} embedded resources per request`);
    return `e${++this.e}`;
  }
}

function columnOf(source: Source, name: string): Column {
  const column = source.columnsByName.get(name);
  if (!column) throw restErrors.undefinedColumn(source.name, name);
  return column;
}

function fieldRef(source: Source, field: FieldSyntax): FieldRef {
  return { column: columnOf(source, field.name), jsonPath: field.jsonPath };
}

function defaultKey(field: FieldSyntax): string {
  for (let i = field.jsonPath.length - 1; i >= 0; i--) {
    const operand = (field.jsonPath[i] as JsonStep).operand;
    if ('key' in operand) return operand.key;
  }
  return field.name;
}

function matchesTarget(rel: Relationship, name: string): boolean {
  // a computed relationship is embedded by its function's name only
  if (rel.function) return rel.function.name === name;
  if (rel.foreignTable === name) return true;
  if (rel.cardinality === 'many-to-many') return false;
  // embedding by the foreign key's name or by its (single) column
  if (rel.constraint === name) return true;
  return (
    (rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one') &&
    rel.columns.length === 1 &&
    rel.columns[0]?.[0] === name &&
    !rel.throughView
  );
}

function matchesHint(rel: Relationship, hint: string): boolean {
  if (rel.junction) {
    return (
      rel.junction.table === hint || rel.junction.constraint1 === hint || rel.junction.constraint2 === hint
    );
  }
  return rel.constraint === hint || rel.columns.some(([a, b]) => a === hint || b === hint);
}

export function findRelationship(
  cache: ExposedSchema,
  from: string,
  name: string,
  hint?: string,
): Relationship {
  const all = cache.relationships.get(from) ?? [];
  let candidates = all.filter((rel) => matchesTarget(rel, name));
  if (hint !== undefined) candidates = candidates.filter((rel) => matchesHint(rel, hint));
  if (candidates.length === 1) return candidates[0] as Relationship;
  if (candidates.length === 0) {
    let suggestion: string | null = null;
    if (!cache.relations.has(from) && !cache.routines.has(from)) {
      const alt = closest(from, cache.relationships.keys());
      if (alt) suggestion = `Perhaps you meant '${alt}' instead of '${from}'.`;
    } else if (hint === undefined) {
      const alt = closest(
        name,
        all.map((r) => r.foreignTable),
      );
      if (alt && alt !== name) suggestion = `Perhaps you meant '${alt}' instead of '${name}'.`;
    }
    throw restErrors.noRelationship(cache.name, from, name, hint, suggestion);
  }
  // A direct relationship wins over many-to-many ones through a junction between the same tables.
  const direct = candidates.filter((rel) => rel.cardinality !== 'many-to-many');
  if (direct.length === 1) return direct[0] as Relationship;
  throw restErrors.ambiguousRelationship(from, name, candidates);
}

function sourceOfRelation(relation: Relation): Source {
  return {
    name: relation.name,
    relationshipsOf: relation.name,
    columns: relation.columns,
    columnsByName: relation.columnsByName,
    relation,
  };
}

/** Output columns of a node, spread embeds counting their own columns. */
function width(node: ReadNode): number {
  let n = 0;
  for (const item of node.select)
    n += item.kind === 'embed' && item.embed.spread ? width(item.embed.node) : 1;
  return n;
}

function typeNamed(ctx: Ctx, name: string): { schema: string; name: string } {
  const type = resolveTypeName(ctx.cache, name);
  if (!type) throw restErrors.undefinedType(name);
  return type;
}

/** `count` with nothing else, where the relation has no column of that name. */
function isBareCount(source: Source, item: SelectSyntax & { kind: 'field' }): boolean {
  return (
    item.field.name === 'count' &&
    item.field.jsonPath.length === 0 &&
    item.aggregate === undefined &&
    item.cast === undefined &&
    !source.columnsByName.has('count')
  );
}

/** Whether a select list applies an aggregate, itself or in the spreads it holds (which hoist theirs). */
function hasSpreadAggregate(select: SelectSyntax[]): boolean {
  return select.some(
    (item) =>
      (item.kind === 'field' && item.aggregate !== undefined) ||
      (item.kind === 'embed' && item.spread && hasSpreadAggregate(item.children)),
  );
}

function outputKey(key: string): string {
  if (key === '') throw restErrors.emptyIdentifier();
  return key;
}

function buildNode(
  ctx: Ctx,
  aliases: Aliases,
  source: Source,
  select: SelectSyntax[],
  alias = aliases.node(),
): ReadNode {
  const node: ReadNode = { source, alias, select: [], embeds: [], conditions: [], order: [] };
  for (const item of select) {
    if (item.kind === 'star') {
      for (const column of source.columns) {
        node.select.push({ kind: 'field', field: { column, jsonPath: [] }, key: column.name });
      }
    } else if (item.kind === 'field' && isBareCount(source, item)) {
      // PostgREST's backwards-compatible count: it writes `rel."count"`, which PostgreSQL reads as
      // count(rel) when the relation has no column of that name — so it works whether or not
      // aggregates are enabled, also inside an embed (`projects(count)`). Decision 241.
      node.select.push({ kind: 'field', key: outputKey(item.alias ?? 'count'), aggregate: 'count' });
    } else if (item.kind === 'field') {
      // Off by default as in PostgREST (db-aggregates-enabled = false), decision 110.
      if (item.aggregate !== undefined && !ctx.aggregates) throw restErrors.aggregatesNotAllowed();
      const counted = item.aggregate === 'count' && item.field.name === '*';
      const plan: SelectPlan = {
        kind: 'field',
        key: outputKey(item.alias ?? item.aggregate ?? defaultKey(item.field)),
      };
      if (!counted) plan.field = fieldRef(source, item.field);
      if (item.cast !== undefined) plan.cast = typeNamed(ctx, item.cast);
      if (item.aggregate !== undefined) plan.aggregate = item.aggregate;
      if (item.aggregateCast !== undefined) plan.aggregateCast = typeNamed(ctx, item.aggregateCast);
      node.select.push(plan);
    } else {
      if (source.relationshipsOf === null) {
        throw restErrors.noRelationship(ctx.cache.name, source.name, item.name, item.hint, null);
      }
      const relationship = findRelationship(ctx.cache, source.relationshipsOf, item.name, item.hint);
      const target = ctx.cache.relations.get(relationship.foreignTable) as Relation;
      const toOne = relationship.cardinality === 'many-to-one' || relationship.cardinality === 'one-to-one';
      if (item.spread && !toOne && ctx.aggregates && hasSpreadAggregate(item.children)) {
        // PostgREST 13 hoists aggregates out of to-one spreads (query.ts), not out of to-many ones.
        throw restErrors.notImplemented(
          'Aggregates are not implemented for one-to-many or many-to-many spreads.',
        );
      }
      const embed: EmbedPlan = {
        key: outputKey(item.alias ?? item.name),
        name: item.name,
        relationship,
        toOne,
        inner: item.join === 'inner',
        spread: item.spread,
        lateral: aliases.lateral(),
        node: buildNode(ctx, aliases, sourceOfRelation(target), item.children),
      };
      if (relationship.junction) embed.junctionAlias = `${embed.lateral}j`;
      node.embeds.push(embed);
      node.select.push({ kind: 'embed', embed });
    }
  }
  if (width(node) > MAX_SELECTED) {
    throw restErrors.tooComplex(`At most ${MAX_SELECTED} columns per resource`);
  }
  return node;
}

function findEmbed(node: ReadNode, name: string): EmbedPlan | undefined {
  return node.embeds.find((e) => e.key === name) ?? node.embeds.find((e) => e.name === name);
}

function nodeAt(root: ReadNode, path: string[]): ReadNode {
  let node = root;
  for (const name of path) {
    const embed = findEmbed(node, name);
    if (!embed) throw restErrors.notEmbedded(name);
    node = embed.node;
  }
  return node;
}

function condition(node: ReadNode, filter: FilterSyntax): Condition {
  const embed = filter.field.jsonPath.length === 0 ? findEmbed(node, filter.field.name) : undefined;
  if (embed && !node.source.columnsByName.has(filter.field.name)) {
    const op = filter.expr.operation;
    if (op.kind !== 'is' || (op.value !== 'null' && op.value !== 'not_null')) {
      throw restErrors.unacceptableFilter(filter.field.name);
    }
    const isNull = (op.value === 'null') !== filter.expr.negate;
    return { kind: 'embedNull', embed, isNull };
  }
  return { kind: 'filter', field: fieldRef(node.source, filter.field), expr: filter.expr };
}

function logicCondition(node: ReadNode, tree: LogicSyntax): Condition {
  if (tree.kind === 'filter') return condition(node, tree.filter);
  return {
    kind: 'tree',
    op: tree.op,
    negate: tree.negate,
    children: tree.children.map((child) => logicCondition(node, child)),
  };
}

function orderPlan(node: ReadNode, term: OrderSyntax): OrderPlan {
  let plan: OrderPlan;
  if (term.relation !== undefined) {
    const embed = findEmbed(node, term.relation);
    if (!embed) throw restErrors.notEmbedded(term.relation);
    if (!embed.toOne) throw restErrors.relatedOrderNotToOne(node.source.name, term.relation);
    plan = { field: fieldRef(embed.node.source, term.field), embed };
  } else plan = { field: fieldRef(node.source, term.field) };
  if (term.direction) plan.direction = term.direction;
  if (term.nulls) plan.nulls = term.nulls;
  return plan;
}

/**
 * A full-text filter without a language searches with the database's default configuration, named
 * explicitly: `to_tsvector('english', content)` is an expression a GIN index can be built on and the
 * planner can match (decision 092), while `to_tsvector(content)` depends on a setting, so no index can
 * serve it. Both mean the same.
 */
function nameSearchConfig(request: ApiRequest, config: string): void {
  const name = (filter: FilterSyntax) => {
    const operation = filter.expr.operation;
    if (operation.kind === 'fts' && operation.language === undefined) operation.language = config;
  };
  const walk = (tree: LogicSyntax): void => {
    if (tree.kind === 'filter') name(tree.filter);
    else tree.children.forEach(walk);
  };
  for (const { filter } of request.filters) name(filter);
  for (const { tree } of request.logic) walk(tree);
}

/** Filters, logic, order and paging of the request attached to the nodes of the read tree. */
function shape(root: ReadNode, request: ApiRequest, options: { rootFilters: boolean }): void {
  for (const { path, filter } of request.filters) {
    if (path.length === 0 && !options.rootFilters) continue;
    const node = nodeAt(root, path);
    node.conditions.push(condition(node, filter));
  }
  for (const { path, tree } of request.logic) {
    if (path.length === 0 && !options.rootFilters) continue;
    const node = nodeAt(root, path);
    node.conditions.push(logicCondition(node, tree));
  }
  for (const { path, terms } of request.order) {
    const node = nodeAt(root, path);
    node.order.push(...terms.map((term) => orderPlan(node, term)));
  }
  for (const [key, paging] of request.paging) {
    if (key === '') continue;
    const node = nodeAt(root, key.split('.'));
    if (paging.offset !== undefined) node.offset = paging.offset;
    if (paging.limit !== undefined) node.limit = paging.limit;
  }
}

/** Intersects the limit/offset parameters with the Range header, capped at db-max-rows. */
function topPaging(request: ApiRequest, maxRows: number | undefined): Paging {
  const query = request.paging.get('') ?? {};
  let offset = query.offset ?? 0;
  let end = query.limit === undefined ? Number.POSITIVE_INFINITY : offset + query.limit;
  if (request.range) {
    const rangeStart = request.range.offset ?? 0;
    const rangeEnd =
      request.range.limit === undefined ? Number.POSITIVE_INFINITY : rangeStart + request.range.limit;
    offset = Math.max(offset, rangeStart);
    end = Math.min(end, rangeEnd);
  }
  if (maxRows !== undefined) end = Math.min(end, offset + maxRows);
  const paging: Paging = {};
  if (offset > 0) paging.offset = offset;
  if (end !== Number.POSITIVE_INFINITY) paging.limit = Math.max(0, end - offset);
  return paging;
}

function relationOf(ctx: Ctx, name: string): Relation {
  const relation = ctx.cache.relations.get(name);
  if (!relation) {
    const alt = closest(name, ctx.cache.relations.keys());
    const schema = ctx.cache.name;
    throw restErrors.tableNotFound(
      schema,
      name,
      alt ? `Perhaps you meant the table '${schema}.${alt}'` : null,
    );
  }
  return relation;
}

/** Root columns a read-back of changed rows uses (selected, joined on, ordered by). */
function usedColumns(node: ReadNode, extra: string[] = []): string[] {
  const used = new Set<string>(extra);
  const visitCondition = (c: Condition) => {
    if (c.kind === 'filter') used.add(c.field.column.name);
    else if (c.kind === 'embedNull') for (const [a] of joinPairs(c.embed)) used.add(a);
    else c.children.forEach(visitCondition);
  };
  for (const item of node.select) {
    if (item.kind === 'field' && item.field) used.add(item.field.column.name);
  }
  for (const embed of node.embeds) for (const [a] of joinPairs(embed)) used.add(a);
  node.conditions.forEach(visitCondition);
  for (const term of node.order) if (!term.embed) used.add(term.field.column.name);
  return node.source.columns.map((c) => c.name).filter((name) => used.has(name));
}

/** Parent-side columns of an embed's join. */
export function joinPairs(embed: EmbedPlan): [string, string][] {
  const rel = embed.relationship;
  if (rel.junction) return rel.junction.sourceColumns.map(([j, s]) => [s, j]);
  return rel.columns;
}

function applied(prefer: Preferences, kinds: (keyof Preferences)[]): string[] {
  const out: string[] = [];
  for (const kind of kinds) {
    const value = prefer[kind];
    if (value === undefined) continue;
    const name = kind === 'maxAffected' ? 'max-affected' : kind;
    out.push(`${name}=${value}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

function planRead(ctx: Ctx, request: ApiRequest): PlannedRequest {
  const relation = relationOf(ctx, request.target);
  const aliases = new Aliases();
  const root = buildNode(ctx, aliases, sourceOfRelation(relation), request.select, 't0');
  shape(root, request, { rootFilters: true });
  const paging = topPaging(request, ctx.maxRows);
  if (paging.offset !== undefined) root.offset = paging.offset;
  if (paging.limit !== undefined) root.limit = paging.limit;
  const head = request.action.kind === 'read' && request.action.head;
  return {
    plan: { kind: 'read', read: root, head, countable: true },
    schema: ctx.cache,
    profileNegotiated: request.profileNegotiated,
    media: request.media,
    prefer: request.prefer,
    applied: applied(request.prefer, ['count', 'timezone', 'tx']),
    offset: paging.offset ?? 0,
  };
}

function writableColumns(relation: Relation, names: string[]): Column[] {
  return names.map((name) => {
    const column = relation.columnsByName.get(name);
    if (!column) throw restErrors.columnNotFound(relation.name, name);
    return column;
  });
}

function insertGroups(request: ApiRequest, columns: Column[], payload: Payload): InsertGroup[] {
  if (request.prefer.missing !== 'default') return [{ columns }];
  const rows = Array.isArray(payload.value) ? (payload.value as Record<string, unknown>[]) : [payload.value];
  const groups = new Map<string, InsertGroup>();
  rows.forEach((row, i) => {
    const present = columns.filter((c) => Object.hasOwn(row as object, c.name));
    const signature = present.map((c) => c.name).join('\u0000');
    let group = groups.get(signature);
    if (!group) {
      group = { columns: present, rows: [] };
      groups.set(signature, group);
    }
    group.rows?.push(i + 1);
  });
  const list = [...groups.values()];
  if (list.length === 1 && list[0]) delete list[0].rows;
  return list.length > 0 ? list : [{ columns }];
}

function planMutation(ctx: Ctx, request: ApiRequest): PlannedRequest {
  const relation = relationOf(ctx, request.target);
  const prefer = request.prefer;
  const returnPref = prefer.return ?? 'minimal';
  const payload = request.payload;
  const aliases = new Aliases();
  const mutationRoot = buildNode(ctx, aliases, sourceOfRelation(relation), [], 't0');

  let mutation: Mutation;
  if (request.action.kind === 'insert') {
    const body = payload as Payload;
    const columns = writableColumns(relation, request.columns ?? body.keys);
    const insert: Mutation = {
      kind: 'insert',
      relation,
      groups: insertGroups(request, columns, body),
      payload: body,
    };
    if (prefer.resolution) {
      const conflict = request.onConflict ?? relation.primaryKey;
      for (const name of conflict) columnOf(sourceOfRelation(relation), name);
      if (conflict.length > 0 || prefer.resolution === 'ignore-duplicates') {
        insert.onConflict = {
          columns: conflict,
          action: prefer.resolution === 'merge-duplicates' ? 'update' : 'nothing',
        };
      }
    }
    mutation = insert;
  } else {
    // Top-level filters choose the rows changed; embedded ones shape the read-back only.
    for (const { path, filter } of request.filters) {
      if (path.length === 0) mutationRoot.conditions.push(condition(mutationRoot, filter));
    }
    for (const { path, tree } of request.logic) {
      if (path.length === 0) mutationRoot.conditions.push(logicCondition(mutationRoot, tree));
    }
    const paging = request.paging.get('');
    if (paging?.limit !== undefined) mutationRoot.limit = paging.limit;
    if (paging?.offset !== undefined) mutationRoot.offset = paging.offset;
    for (const { path, terms } of request.order) {
      if (path.length === 0) mutationRoot.order.push(...terms.map((t) => orderPlan(mutationRoot, t)));
    }
    // As hosted Supabase (pg-safeupdate): a change to every row must be asked for with a filter.
    if (mutationRoot.conditions.length === 0 && mutationRoot.limit === undefined) {
      throw restErrors.whereRequired(request.action.kind === 'update' ? 'UPDATE' : 'DELETE');
    }
    if (request.action.kind === 'update') {
      const body = payload as Payload;
      const columns = writableColumns(relation, request.columns ?? body.keys);
      mutation = { kind: 'update', relation, columns, payload: body, root: mutationRoot };
    } else {
      mutation = { kind: 'delete', relation, root: mutationRoot };
    }
  }

  let read: ReadNode | undefined;
  let returning: string[] = [];
  if (returnPref === 'representation') {
    // the read-back selects from the changed rows (pgrst_source), shaped like a read
    read = buildNode(ctx, aliases, sourceOfRelation(relation), request.select, 't0');
    const embeddedPaging = new Map([...request.paging].filter(([path]) => path !== ''));
    shape(read, { ...request, paging: embeddedPaging }, { rootFilters: false });
    returning = usedColumns(read);
  } else if (
    returnPref === 'headers-only' &&
    request.action.kind === 'insert' &&
    relation.primaryKey.length > 0
  ) {
    read = buildNode(
      ctx,
      aliases,
      sourceOfRelation(relation),
      relation.primaryKey.map((name) => ({ kind: 'field', field: { name, jsonPath: [] } })),
      't0',
    );
    returning = relation.primaryKey;
  }
  const appliedKinds: (keyof Preferences)[] = ['return', 'count', 'timezone', 'tx'];
  if (request.action.kind === 'insert') appliedKinds.push('resolution', 'missing');
  if (prefer.handling === 'strict' && request.action.kind !== 'insert')
    appliedKinds.push('handling', 'maxAffected');
  return {
    plan: { kind: 'mutate', mutation, ...(read ? { read } : {}), returning },
    schema: ctx.cache,
    profileNegotiated: request.profileNegotiated,
    media: request.media,
    prefer,
    applied: applied(prefer, appliedKinds),
    offset: 0,
  };
}

function signature(routine: Routine): string {
  // PostgREST prints an unnamed parameter with an empty name: `public.f( => json)`.
  if (routine.singleUnnamed) return `${routine.schema}.${routine.name}( => ${routine.singleUnnamed})`;
  return `${routine.schema}.${routine.name}(${routine.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * PostgREST's order of overloads (its `Ord Routine`): fewer parameters first, then the parameters
 * compared one by one by name, type, whether required, whether variadic.
 */
function compareOverloads(a: Routine, b: Routine): number {
  if (a.params.length !== b.params.length) return a.params.length - b.params.length;
  for (let i = 0; i < a.params.length; i++) {
    const x = a.params[i] as Routine['params'][number];
    const y = b.params[i] as Routine['params'][number];
    const order =
      compareText(x.name, y.name) ||
      compareText(x.type, y.type) ||
      Number(!x.hasDefault) - Number(!y.hasDefault) ||
      Number(x.variadic) - Number(y.variadic);
    if (order !== 0) return order;
  }
  return 0;
}

function chooseRoutine(ctx: Ctx, request: ApiRequest, argNames: string[], body?: Payload): Routine {
  const name = request.target;
  const overloads = ctx.cache.routines.get(name) ?? [];
  const bodyIsObject =
    body !== undefined && typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value);
  const media = body?.media;
  const matches = overloads.filter((routine) => {
    if (routine.singleUnnamed) return false;
    // A raw body names no argument: as PostgREST's findProc, it fits a function whose parameters all
    // have defaults, never one without parameters.
    if (media) return routine.params.length > 0 && routine.params.every((p) => p.hasDefault);
    if (body && !bodyIsObject) return false;
    const params = new Set(routine.params.map((p) => p.name));
    if (!argNames.every((arg) => params.has(arg))) return false;
    return routine.params.every((p) => p.hasDefault || argNames.includes(p.name));
  });
  if (matches.length === 1) return matches[0] as Routine;
  // PostgREST 13 (findProc) picks no favourite among overloads the argument names fit, nor would
  // PostgreSQL: PGRST203, candidates in PostgREST's order.
  if (matches.length > 1)
    throw restErrors.ambiguousFunction([...matches].sort(compareOverloads).map(signature));
  // Then, as PostgREST's fallback, a function whose single unnamed parameter takes this body's type.
  const single =
    body === undefined
      ? []
      : overloads.filter((r) =>
          media ? r.singleUnnamed === media : r.singleUnnamed === 'json' || r.singleUnnamed === 'jsonb',
        );
  if (single.length === 1) return single[0] as Routine;
  if (single.length > 1)
    throw restErrors.ambiguousFunction([...single].sort(compareOverloads).map(signature));
  let suggestion: string | null = null;
  if (overloads.length === 0) {
    const alt = closest(name, ctx.cache.routines.keys(), 0.75);
    if (alt) suggestion = `Perhaps you meant to call the function ${ctx.cache.name}.${alt}`;
  } else {
    const named = overloads.filter((r) => !r.singleUnnamed);
    const lists = named.map(
      (r) =>
        `(${r.params
          .map((p) => p.name)
          .sort()
          .join(', ')})`,
    );
    const alt = closest(`(${[...argNames].sort().join(', ')})`, lists, 0.33);
    if (alt) suggestion = `Perhaps you meant to call the function ${ctx.cache.name}.${name}${alt}`;
  }
  throw restErrors.noFunction(
    ctx.cache.name,
    name,
    [...argNames].sort(),
    suggestion,
    body === undefined ? 'none' : (media ?? 'json'),
  );
}

function planCall(ctx: Ctx, request: ApiRequest): PlannedRequest {
  if (request.action.kind !== 'call') throw new Error('not a call');
  const method = request.action.method;
  const body = method === 'POST' ? request.payload : undefined;
  const argNames = body ? body.keys : [...new Set(request.args.map(([k]) => k))];
  const routine = chooseRoutine(ctx, request, argNames, body);

  let argsJson: string;
  let args: Routine['params'] = [];
  if (routine.singleUnnamed) {
    argsJson = (body as Payload).raw;
  } else {
    args = routine.params.filter((p) => argNames.includes(p.name));
    if (body) argsJson = body.raw;
    else {
      const object: Record<string, string | string[]> = {};
      for (const [key, value] of request.args) {
        const param = routine.params.find((p) => p.name === key);
        if (param?.variadic) {
          const list = object[key];
          object[key] = Array.isArray(list) ? [...list, value] : [value];
        } else object[key] = value;
      }
      for (const [key, value] of Object.entries(object)) {
        if (Array.isArray(value))
          object[key] = `{${value.map((v) => `"${v.replace(/(["\\])/g, '\\$1')}"`).join(',')}}`;
      }
      argsJson = JSON.stringify(object);
    }
  }

  const readOnly = method !== 'POST' || routine.volatility !== 'volatile';
  const call: CallPlan = { routine, args, argsJson, readOnly, fromQuery: body === undefined };
  const head = method === 'HEAD';
  const prefer = request.prefer;
  if (prefer.handling === 'strict' && prefer.maxAffected !== undefined && !routine.setOf) {
    throw restErrors.maxAffectedRpc();
  }

  let read: ReadNode | undefined;
  const returns = routine.returns;
  const paging = topPaging(request, routine.setOf ? ctx.maxRows : undefined);
  if (returns.kind === 'composite') {
    const source: Source = {
      name: routine.name,
      relationshipsOf: returns.relation ?? null,
      columns: returns.columns,
      columnsByName: returns.columnsByName,
    };
    const aliases = new Aliases();
    read = buildNode(ctx, aliases, source, request.select, 't0');
    shape(read, request, { rootFilters: true });
    if (paging.offset !== undefined) read.offset = paging.offset;
    if (paging.limit !== undefined) read.limit = paging.limit;
  } else {
    // a scalar result has no columns to filter or order by
    const name = request.filters[0]?.filter.field.name ?? request.order[0]?.terms[0]?.field.name;
    if (name !== undefined) throw restErrors.undefinedColumn(routine.name, name);
  }
  const appliedKinds: (keyof Preferences)[] = ['count', 'timezone', 'tx'];
  if (prefer.handling === 'strict') appliedKinds.push('handling', 'maxAffected');
  return {
    plan: { kind: 'call', call, ...(read ? { read } : {}), head, countable: routine.setOf },
    schema: ctx.cache,
    profileNegotiated: request.profileNegotiated,
    media: request.media,
    prefer,
    applied: applied(prefer, appliedKinds),
    offset: paging.offset ?? 0,
    ...(paging.limit !== undefined ? { limit: paging.limit } : {}),
  };
}

export function planRequest(context: PlanContext, request: ApiRequest): PlannedRequest {
  const schema = context.cache.schemas.get(request.schema);
  // parseApiRequest admits only exposed schemas; a cache loaded for other ones cannot serve it
  if (!schema) throw restErrors.unacceptableSchema(request.schema, context.cache.names);
  const ctx: Ctx = { cache: schema, maxRows: context.maxRows, aggregates: context.aggregates };
  if (schema.textSearchConfig) nameSearchConfig(request, schema.textSearchConfig);
  switch (request.action.kind) {
    case 'read':
      return planRead(ctx, request);
    case 'call':
      return planCall(ctx, request);
    default:
      return planMutation(ctx, request);
  }
}
