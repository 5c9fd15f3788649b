import { quoteIdent, quoteQualified } from '../db/sql.ts';
import type { AggregateFunction, JsonStep, OpExpr, SimpleOperator } from './grammar.ts';
import type {
  CallPlan,
  Condition,
  EmbedPlan,
  FieldRef,
  InsertGroup,
  Mutation,
  OrderPlan,
  ReadNode,
  SelectPlan,
} from './plan.ts';
import type { MediaChoice } from './request.ts';

/**
 * Stage 3 of the pipeline: a plan becomes SQL text plus bind parameters. Identifiers come from the
 * schema cache and are quoted by `quoteIdent`/`quoteQualified` (the one place identifiers are quoted);
 * every value from the request is a bind parameter; the only other text spliced in are our own
 * aliases and, for function calls, argument type names as PostgreSQL's `format_type` spelled them.
 *
 * The JSON of the answer is built in SQL, as PostgREST does (`json_agg` over the page, embedded
 * resources as lateral subqueries), so bodies are the same bytes on every PostgreSQL and the driver's
 * type parsing never touches them.
 */

export interface Statement {
  sql: string;
  params: unknown[];
}

export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const ident = quoteIdent;
const col = (alias: string, name: string) => `${ident(alias)}.${ident(name)}`;

const OPERATORS: Record<SimpleOperator, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
  isdistinct: 'is distinct from',
};

const FTS_FUNCTIONS = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
} as const;

/** A PostgreSQL array literal of text elements, every element quoted. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/(["\\])/g, '\\$1')}"`).join(',')}}`;
}

function jsonStep(p: Params, step: JsonStep): string {
  const operand =
    'key' in step.operand ? `${p.add(step.operand.key)}::text` : `${p.add(String(step.operand.index))}::int`;
  return `${step.arrow}${operand}`;
}

export function fieldSql(p: Params, alias: string, field: FieldRef): string {
  const computed = field.column.computed;
  const base = computed
    ? `${quoteQualified(computed.schema, computed.name)}(${ident(alias)}${computed.rowOf ? `::${quoteQualified(computed.rowOf.schema, computed.rowOf.name)}` : ''})`
    : col(alias, field.column.name);
  if (field.jsonPath.length === 0) return base;
  const typeName = field.column.typeName;
  // arrays and composites are reached through their JSON form, as PostgREST does
  let expr = typeName === 'json' || typeName === 'jsonb' ? base : `to_jsonb(${base})`;
  for (const step of field.jsonPath) expr = `(${expr}${jsonStep(p, step)})`;
  return expr;
}

/**
 * Values are bind parameters of unknown type, so PostgreSQL reads them with the column type's own
 * input function, as PostgREST's literals are read. Booleans and byte strings are handed over as
 * text and cast in SQL: the embedded driver would otherwise judge such values itself, differently.
 */
function valueSql(p: Params, field: FieldRef, value: string, array = false): string {
  const typeName = field.column.typeName;
  if (field.jsonPath.length > 0 || (typeName !== 'bool' && typeName !== 'bytea')) return p.add(value);
  return `(${p.add(value)}::text)::${quoteQualified('pg_catalog', typeName)}${array ? '[]' : ''}`;
}

function filterSql(p: Params, alias: string, field: FieldRef, expr: OpExpr): string {
  const target = fieldSql(p, alias, field);
  const operation = expr.operation;
  let sql: string;
  switch (operation.kind) {
    case 'simple': {
      const pattern = operation.op === 'like' || operation.op === 'ilike';
      const value = pattern ? operation.value.replaceAll('*', '%') : operation.value;
      const op = OPERATORS[operation.op];
      sql = operation.quantifier
        ? `${target} ${op} ${operation.quantifier}(${valueSql(p, field, value, true)})`
        : `${target} ${op} ${valueSql(p, field, value)}`;
      break;
    }
    case 'in':
      sql = `${target} = any(${valueSql(p, field, arrayLiteral(operation.values), true)})`;
      break;
    case 'is':
      sql = `${target} is ${operation.value === 'not_null' ? 'not null' : operation.value}`;
      break;
    case 'fts': {
      const language = operation.language === undefined ? undefined : p.add(operation.language);
      const vector =
        field.column.typeName === 'tsvector' && field.jsonPath.length === 0
          ? target
          : `to_tsvector(${language ? `${language}::regconfig, ` : ''}${target})`;
      const query = `${FTS_FUNCTIONS[operation.op]}(${language ? `${language}::regconfig, ` : ''}${p.add(operation.value)})`;
      sql = `${vector} @@ ${query}`;
      break;
    }
  }
  return expr.negate ? `not (${sql})` : sql;
}

function conditionSql(p: Params, node: ReadNode, c: Condition): string {
  switch (c.kind) {
    case 'filter':
      return filterSql(p, node.alias, c.field, c.expr);
    case 'embedNull': {
      if (c.embed.spread && !c.embed.toOne) {
        return `${col(c.embed.lateral, 'pgrst_n')} ${c.isNull ? '=' : '>'} 0`;
      }
      const present = c.embed.toOne
        ? `row_to_json(${ident(c.embed.lateral)}.*)`
        : `${ident(c.embed.lateral)}.body`;
      return `${present} is ${c.isNull ? '' : 'not '}null`;
    }
    case 'tree': {
      const inner = c.children.map((child) => `(${conditionSql(p, node, child)})`).join(` ${c.op} `);
      return c.negate ? `not (${inner})` : inner;
    }
  }
}

/**
 * In a grouped node, a to-one embed's column it selects as it is: ordered by the joined column, which
 * is a group term (the correlated subquery would read the parent's ungrouped key).
 */
function groupedEmbedColumn(node: ReadNode, embed: EmbedPlan, field: FieldRef): string | undefined {
  if (!isAggregated(node) || !embed.toOne || field.jsonPath.length > 0) return undefined;
  const item = embed.node.select.find(
    (candidate) =>
      candidate.kind === 'field' &&
      !candidate.aggregate &&
      !candidate.cast &&
      candidate.field?.jsonPath.length === 0 &&
      candidate.field.column.name === field.column.name,
  );
  return item?.kind === 'field' ? col(embed.lateral, item.key) : undefined;
}

function orderSql(p: Params, node: ReadNode, terms: OrderPlan[]): string {
  if (terms.length === 0) return '';
  const parts = terms.map((term) => {
    const expr = term.embed
      ? (groupedEmbedColumn(node, term.embed, term.field) ?? relatedValue(p, node, term.embed, term.field))
      : fieldSql(p, node.alias, term.field);
    return `${expr}${term.direction ? ` ${term.direction}` : ''}${term.nulls ? ` nulls ${term.nulls}` : ''}`;
  });
  return ` order by ${parts.join(', ')}`;
}

function pagingSql(p: Params, node: ReadNode): string {
  let sql = '';
  if (node.limit !== undefined) sql += ` limit ${p.add(node.limit)}`;
  if (node.offset !== undefined && node.offset > 0) sql += ` offset ${p.add(node.offset)}`;
  return sql;
}

/** The output keys a node's select produces (spreads contribute their children's keys). */
function outputKeys(node: ReadNode): string[] {
  return outputColumns(node).map((column) => column.key);
}

export function headerKeys(node: ReadNode): string[] {
  return outputKeys(node);
}

/** A field's value (with its cast), before any aggregate: what a group is formed by. */
function fieldValueSql(p: Params, node: ReadNode, item: SelectPlan & { kind: 'field' }): string {
  if (!item.field) return '*';
  const expr = fieldSql(p, node.alias, item.field);
  return item.cast ? `cast(${expr} as ${quoteQualified(item.cast.schema, item.cast.name)})` : expr;
}

function ownAggregates(node: ReadNode): boolean {
  return node.select.some((item) => item.kind === 'field' && item.aggregate !== undefined);
}

/**
 * A to-one spread holding an aggregate, its own or a nested to-one spread's: PostgREST 13 hoists it to
 * the parent, which aggregates the spread's values over its rows and groups by everything else it
 * selects, the spread's other columns included. The spread's subquery then hands up raw values.
 */
function hoistsAggregates(embed: EmbedPlan): boolean {
  return (
    embed.spread && embed.toOne && (ownAggregates(embed.node) || embed.node.embeds.some(hoistsAggregates))
  );
}

/** Whether a node groups its rows: an aggregate of its own, or one hoisted from a to-one spread. */
function isAggregated(node: ReadNode): boolean {
  return ownAggregates(node) || node.embeds.some(hoistsAggregates);
}

type Aggregated = { aggregate?: AggregateFunction; aggregateCast?: { schema: string; name: string } };

/**
 * The columns a node's select produces (spreads contribute their children's), each with its aggregate,
 * if any: what a hoisting spread hands its parent, which applies the aggregates (decision 241).
 */
function outputColumns(node: ReadNode): ({ key: string } & Aggregated)[] {
  const columns: ({ key: string } & Aggregated)[] = [];
  for (const item of node.select) {
    if (item.kind === 'field') {
      columns.push({ key: item.key, aggregate: item.aggregate, aggregateCast: item.aggregateCast });
    } else if (item.embed.spread) columns.push(...outputColumns(item.embed.node));
    else if (item.embed.node.select.length > 0) columns.push({ key: item.embed.key });
  }
  return columns;
}

function aggregateSql(value: string, { aggregate, aggregateCast }: Aggregated): string {
  const applied = `pg_catalog.${aggregate}(${value})`;
  return aggregateCast
    ? `cast(${applied} as ${quoteQualified(aggregateCast.schema, aggregateCast.name)})`
    : applied;
}

/**
 * An embed's value in the select list. In an aggregated node it is jsonb, as PostgREST 13 has it,
 * so that it can be grouped by (json has no equality).
 */
function embedValueSql(embed: EmbedPlan, aggregated: boolean): string | undefined {
  if (embed.spread || embed.node.select.length === 0) return undefined;
  const value = embed.toOne
    ? `row_to_json(${ident(embed.lateral)}.*)`
    : `coalesce(${ident(embed.lateral)}.body, '[]')`;
  return aggregated ? `${value}::jsonb` : value;
}

/**
 * One selected item's values, each marked when it is an aggregate (the rest are group terms). With
 * `hoist`, the node is a to-one spread whose aggregates its parent applies: it hands up each
 * aggregate's input (1 for `count()`, so a parent row without the spread counts 0) and groups nothing.
 */
function selectItemSql(
  p: Params,
  node: ReadNode,
  item: SelectPlan,
  hoist: boolean,
): { sql: string; aggregate: boolean }[] {
  if (item.kind === 'field') {
    if (!item.aggregate)
      return [{ sql: `${fieldValueSql(p, node, item)} as ${ident(item.key)}`, aggregate: false }];
    if (hoist) {
      const input = item.field ? fieldValueSql(p, node, item) : '1';
      return [{ sql: `${input} as ${ident(item.key)}`, aggregate: true }];
    }
    return [
      { sql: `${aggregateSql(fieldValueSql(p, node, item), item)} as ${ident(item.key)}`, aggregate: true },
    ];
  }
  const embed = item.embed;
  if (embed.spread) {
    if (!hoist && hoistsAggregates(embed)) {
      return outputColumns(embed.node).map((column) => {
        const value = col(embed.lateral, column.key);
        return column.aggregate
          ? { sql: `${aggregateSql(value, column)} as ${ident(column.key)}`, aggregate: true }
          : { sql: `${value} as ${ident(column.key)}`, aggregate: false };
      });
    }
    return outputKeys(embed.node).map((key) => ({
      sql: `${col(embed.lateral, key)} as ${ident(key)}`,
      aggregate: false,
    }));
  }
  const value = embedValueSql(embed, hoist || isAggregated(node));
  // an empty embed only filters
  return value === undefined ? [] : [{ sql: `${value} as ${ident(embed.key)}`, aggregate: false }];
}

/** The relation an embed reads, joined to its parent's row. */
function embedFrom(parentAlias: string, embed: EmbedPlan): { from: string; where: string[] } {
  const rel = embed.relationship;
  const child = embed.node;
  const table = quoteQualified(rel.schema, rel.foreignTable);
  if (rel.junction && embed.junctionAlias) {
    const j = embed.junctionAlias;
    const junction = quoteQualified(rel.junction.schema, rel.junction.table);
    const on = rel.junction.targetColumns
      .map(([jc, tc]) => `${col(j, jc)} = ${col(child.alias, tc)}`)
      .join(' and ');
    return {
      from: `${table} as ${ident(child.alias)} join ${junction} as ${ident(j)} on ${on}`,
      where: rel.junction.sourceColumns.map(([jc, sc]) => `${col(j, jc)} = ${col(parentAlias, sc)}`),
    };
  }
  if (rel.function) {
    return {
      from: `${quoteQualified(rel.function.schema, rel.function.name)}(${ident(parentAlias)}) as ${ident(child.alias)}`,
      where: [],
    };
  }
  return {
    from: `${table} as ${ident(child.alias)}`,
    where: rel.columns.map(([pc, cc]) => `${col(child.alias, cc)} = ${col(parentAlias, pc)}`),
  };
}

function lateralJoins(p: Params, node: ReadNode, only?: (embed: EmbedPlan) => boolean): string {
  let sql = '';
  for (const embed of node.embeds) {
    if (only && !only(embed)) continue;
    const inner = selectSql(p, embed.node, embedFrom(node.alias, embed), hoistsAggregates(embed));
    const kind = embed.inner ? 'inner' : 'left';
    if (embed.toOne) {
      sql += ` ${kind} join lateral (${inner}) as ${ident(embed.lateral)} on true`;
    } else if (embed.spread) {
      // PostgREST 13's spread of a to-many embed: each column becomes the array of its values
      const rows = ident(`${embed.lateral}r`);
      const columns = outputKeys(embed.node).map(
        (key) => `, coalesce(json_agg(${col(`${embed.lateral}r`, key)}), '[]') as ${ident(key)}`,
      );
      sql += ` ${kind} join lateral (select pg_catalog.count(*) as pgrst_n${columns.join('')} from (${inner}) as ${rows}) as ${ident(embed.lateral)} on ${embed.inner ? `${ident(embed.lateral)}.pgrst_n > 0` : 'true'}`;
    } else {
      const rows = ident(`${embed.lateral}r`);
      sql += ` ${kind} join lateral (select json_agg(${rows}.*) as body from (${inner}) as ${rows}) as ${ident(embed.lateral)} on ${embed.inner ? `${ident(embed.lateral)}.body is not null` : 'true'}`;
    }
  }
  return sql;
}

function whereSql(p: Params, node: ReadNode, extra: string[] = []): string {
  const parts = [...extra, ...node.conditions.map((c) => conditionSql(p, node, c))];
  return parts.length > 0
    ? ` where ${parts.map((w) => (parts.length > 1 ? `(${w})` : w)).join(' and ')}`
    : '';
}

/** A correlated subquery for ordering a parent by a column of a to-one embed. */
function relatedValue(p: Params, parent: ReadNode, embed: EmbedPlan, field: FieldRef): string {
  const { from, where } = embedFrom(parent.alias, embed);
  const child = embed.node;
  return `(select ${fieldSql(p, child.alias, field)} from ${from}${lateralJoins(p, child, (e) => e.inner)}${whereSql(p, child, where)} limit 1)`;
}

/**
 * `select <list> from <source> <laterals> where ... order by ... limit ...` for one node; `hoist` for a
 * to-one spread whose aggregates the parent applies (selectItemSql).
 */
function selectSql(
  p: Params,
  node: ReadNode,
  source: { from: string; where: string[] },
  hoist = false,
): string {
  // PostgREST's groupF: with an aggregate in the list, every other selected value is a group term,
  // named by its position (the same expression written twice would carry different parameters).
  const list: string[] = [];
  const grouped: number[] = [];
  for (const item of node.select) {
    for (const value of selectItemSql(p, node, item, hoist)) {
      list.push(value.sql);
      if (!value.aggregate) grouped.push(list.length);
    }
  }
  const group = !hoist && isAggregated(node) && grouped.length > 0 ? ` group by ${grouped.join(', ')}` : '';
  return `select ${list.join(', ')} from ${source.from}${lateralJoins(p, node)}${whereSql(p, node, source.where)}${group}${orderSql(p, node, node.order)}${pagingSql(p, node)}`;
}

function rootSource(node: ReadNode, from: string | undefined): { from: string; where: string[] } {
  if (from) return { from: `${from} as ${ident(node.alias)}`, where: [] };
  const relation = node.source.relation;
  if (!relation) throw new Error('a read without a relation needs a source');
  return { from: `${quoteQualified(relation.schema, relation.name)} as ${ident(node.alias)}`, where: [] };
}

/** `select 1 from ...` with the root's conditions and inner joins: what a count counts. */
function countSource(p: Params, node: ReadNode, from: string | undefined): string {
  const source = rootSource(node, from);
  const needed = new Set<EmbedPlan>();
  const visit = (c: Condition) => {
    if (c.kind === 'embedNull') needed.add(c.embed);
    else if (c.kind === 'tree') c.children.forEach(visit);
  };
  node.conditions.forEach(visit);
  const joins = lateralJoins(p, node, (e) => e.inner || needed.has(e));
  return `select 1 from ${source.from}${joins}${whereSql(p, node)}`;
}

export type CountMethod = 'exact' | 'estimated-capped' | undefined;

export interface ReadOptions {
  media: MediaChoice;
  head: boolean;
  count: CountMethod;
  /** Rows counted at most for an estimated count (above that the planner's estimate is used). */
  countCap?: number;
  /** The rows to read instead of the root relation: the CTE `pgrst_source` (and CTEs before it). */
  cte?: MutationSql;
  /** Whether the output is a single object (a function returning one composite). */
  single?: boolean;
}

function bodySql(media: MediaChoice, head: boolean, single: boolean): string {
  if (head) return 'null';
  // `pgrst_t.*` is the whole row even if the request named a column pgrst_t
  const rows = media.stripNulls ? 'json_strip_nulls(json_agg(pgrst_t.*))' : 'json_agg(pgrst_t.*)';
  if (media.kind === 'csv') {
    return `coalesce(string_agg(substr((pgrst_t.*)::text, 2, length((pgrst_t.*)::text) - 2), E'\\n'), '')`;
  }
  if (media.kind === 'object' || single) {
    const first = media.stripNulls ? 'json_strip_nulls(json_agg(pgrst_t.*)->0)' : '(json_agg(pgrst_t.*)->0)';
    return `coalesce(${first}::text, 'null')`;
  }
  return `coalesce(${rows}, '[]')::text`;
}

/**
 * The read statement: one row with the total (if counted), the page size and the body.
 * `from` replaces the root relation (e.g. `pgrst_source` after a mutation).
 */
export function readStatement(p: Params, node: ReadNode, options: ReadOptions): string {
  const from = options.cte ? 'pgrst_source' : undefined;
  const page = selectSql(p, node, rootSource(node, from));
  let total = 'null::bigint';
  if (options.count === 'exact') {
    total = `(select pg_catalog.count(*) from (${countSource(p, node, from)}) as pgrst_c)`;
  } else if (options.count === 'estimated-capped') {
    total = `(select pg_catalog.count(*) from (${countSource(p, node, from)} limit ${p.add((options.countCap ?? 0) + 1)}) as pgrst_c)`;
  }
  if (options.count && !isAggregated(node)) total = totalFromShortPage(p, node, total, options);
  const body = bodySql(options.media, options.head, options.single ?? false);
  const withClause = options.cte
    ? `with ${[...options.cte.ctes, `pgrst_source as (${options.cte.sql})`].join(', ')} `
    : '';
  return `${withClause}select ${total} as total, pg_catalog.count(*) as page_total, ${body} as body from (${page}) as pgrst_t`;
}

/**
 * A page that came back short holds the last rows there are, so the total is its offset plus its
 * rows, exactly, in the same snapshot: the count's own scan is then skipped (the subquery in the other
 * branch of the CASE is evaluated only when reached). Not for an empty page past the start (the rows
 * may end anywhere before it), nor, for an estimated count, above the cap, where the answer is the
 * planner's estimate as before.
 */
function totalFromShortPage(p: Params, node: ReadNode, counted: string, options: ReadOptions): string {
  const offset = node.offset ?? 0;
  const rows = 'pg_catalog.count(*)';
  const conditions: string[] = [];
  if (node.limit !== undefined) conditions.push(`${rows} < ${p.add(node.limit)}`);
  if (offset > 0) conditions.push(`${rows} > 0`);
  if (options.count === 'estimated-capped')
    conditions.push(`${rows} + ${p.add(offset)} <= ${p.add(options.countCap ?? 0)}`);
  const short = conditions.length > 0 ? conditions.join(' and ') : 'true';
  return `case when ${short} then ${rows} + ${p.add(offset)} else ${counted} end`;
}

/** What the planner estimates the root query returns (`Prefer: count=planned`). */
export function plannedCountStatement(p: Params, node: ReadNode, cte?: MutationSql): string {
  const withClause = cte ? `with ${[...cte.ctes, `pgrst_source as (${cte.sql})`].join(', ')} ` : '';
  return `explain (format json) ${withClause}${countSource(p, node, cte ? 'pgrst_source' : undefined)}`;
}

// ---------------------------------------------------------------------------------------------
// Mutations

function returningSql(alias: string, columns: string[]): string {
  if (columns.length === 0) return ' returning 1 as pgrst_none';
  return ` returning ${columns.map((c) => col(alias, c)).join(', ')}`;
}

const INSERTED = "nullif(pg_catalog.current_setting('pgrst.inserted', true), '')";

function countInserted(sign: '+' | '-', never: string): string {
  return `pg_catalog.set_config('pgrst.inserted', (coalesce(${INSERTED}::int, 0) ${sign} 1)::text, true) <> '${never}'`;
}

/** After a merging upsert, in its transaction: how many rows it inserted. */
export const insertedCountSql = `select ${INSERTED}::int as inserted`;

function insertGroupSql(
  p: Params,
  mutation: Extract<Mutation, { kind: 'insert' }>,
  group: InsertGroup,
  body: string,
  returning: string[] | undefined,
): string {
  const relation = mutation.relation;
  const table = quoteQualified(relation.schema, relation.name);
  const names = group.columns.map((c) => ident(c.name));
  const rows = group.rows
    ? `(select json_agg(pgrst_e.value order by pgrst_e.ordinality) from json_array_elements(${body}) with ordinality as pgrst_e where pgrst_e.ordinality = any(${p.add(`{${group.rows.join(',')}}`)}::int8[]))`
    : body;
  const conflict = mutation.onConflict;
  const target =
    conflict && conflict.columns.length > 0 ? ` (${conflict.columns.map(ident).join(', ')})` : '';
  const merge = conflict?.action === 'update' && group.columns.length > 0 && target !== '';
  let sql = `insert into ${table} as ${ident('t0')}${names.length > 0 ? ` (${names.join(', ')})` : ''} select ${names.join(', ')} from json_populate_recordset(null::${table}, ${rows}) as pgrst_r`;
  // PostgREST's count of rows an upsert inserted (rather than updated): +1 per row offered, −1 per
  // conflict updated; 0 → 200, more → 201 (insertedCountSql reads it).
  if (merge) sql += ` where ${countInserted('+', '0')}`;
  if (conflict) {
    if (merge) {
      sql += ` on conflict${target} do update set ${names.map((n) => `${n} = excluded.${n}`).join(', ')} where ${countInserted('-', '-1')}`;
    } else sql += ` on conflict${target} do nothing`;
  }
  if (returning) sql += returningSql('t0', returning);
  return sql;
}

/**
 * The mutation itself, as named CTEs (`ctes`, to open a WITH) and a final statement. With
 * `returning`, its rows feed a read-back as the CTE `pgrst_source`.
 */
export interface MutationSql {
  ctes: string[];
  sql: string;
}

export function mutationStatement(p: Params, mutation: Mutation, returning?: string[]): MutationSql {
  if (mutation.kind === 'insert') {
    const body = `(select case json_typeof(pgrst_b.v) when 'array' then pgrst_b.v else json_build_array(pgrst_b.v) end from (select ${p.add(mutation.payload.raw)}::json as v) as pgrst_b)`;
    if (mutation.groups.length === 1) {
      return {
        ctes: [],
        sql: insertGroupSql(p, mutation, mutation.groups[0] as InsertGroup, body, returning),
      };
    }
    // rows with different keys under missing=default: one insert per shape, one statement in all
    const ctes = mutation.groups.map(
      (group, i) =>
        `${ident(`pgrst_g${i}`)} as (${insertGroupSql(p, mutation, group, body, returning ?? [])})`,
    );
    const union = mutation.groups.map((_, i) => `select * from ${ident(`pgrst_g${i}`)}`).join(' union all ');
    if (!returning)
      return { ctes, sql: `select pg_catalog.count(*) as pgrst_affected from (${union}) as pgrst_u` };
    return { ctes, sql: union };
  }
  const relation = mutation.relation;
  const table = quoteQualified(relation.schema, relation.name);
  const root = mutation.root;
  const alias = ident(root.alias);
  let where: string;
  if (root.limit !== undefined || (root.offset ?? 0) > 0) {
    // a limited update/delete picks its rows by physical id, in the requested order
    const inner = `select ${alias}.ctid from ${table} as ${alias}${whereSql(p, root)}${orderSql(p, root, root.order)}${pagingSql(p, root)}`;
    where = ` where ${alias}.ctid = any(array(${inner}))`;
  } else where = whereSql(p, root);
  let sql: string;
  if (mutation.kind === 'update') {
    if (mutation.columns.length === 0) {
      // nothing to set: the rows the filters match, unchanged (no write happens)
      const list =
        returning && returning.length > 0
          ? returning.map((c) => col(root.alias, c)).join(', ')
          : '1 as pgrst_none';
      return { ctes: [], sql: `select ${list} from ${table} as ${alias}${where}` };
    }
    const set = mutation.columns.map((c) => `${ident(c.name)} = pgrst_b.${ident(c.name)}`).join(', ');
    sql = `update ${table} as ${alias} set ${set} from (select * from json_populate_record(null::${table}, ${p.add(mutation.payload.raw)}::json)) as pgrst_b${where}`;
  } else {
    sql = `delete from ${table} as ${alias}${where}`;
  }
  if (returning) sql += returningSql(root.alias, returning);
  return { ctes: [], sql };
}

/** A complete statement from named CTEs and a final query. */
export function withCtes(ctes: string[], sql: string): string {
  return ctes.length > 0 ? `with ${ctes.join(', ')} ${sql}` : sql;
}

// ---------------------------------------------------------------------------------------------
// Function calls

/** PostgreSQL's polymorphic pseudo-types: a parameter of one takes its type from the value passed. */
const POLYMORPHIC: ReadonlySet<string> = new Set([
  'anyelement',
  'anyarray',
  'anynonarray',
  'anyenum',
  'anyrange',
  'anymultirange',
  'anycompatible',
  'anycompatiblearray',
  'anycompatiblenonarray',
  'anycompatiblerange',
  'anycompatiblemultirange',
]);

function callParts(p: Params, call: CallPlan): { expr: string; from: string } {
  const routine = call.routine;
  const name = quoteQualified(routine.schema, routine.name);
  if (routine.singleUnnamed === 'bytea') {
    // The bytes arrive as hex digits (http.ts), a text parameter on every driver (PGlite would
    // otherwise want a Uint8Array for a bytea one), decoded here.
    return { expr: `${name}(decode(${p.add(call.argsJson)}::text, 'hex'))`, from: '' };
  }
  if (routine.singleUnnamed) {
    return { expr: `${name}(${p.add(call.argsJson)}::${routine.singleUnnamed})`, from: '' };
  }
  if (call.args.length === 0) return { expr: `${name}()`, from: '' };
  if (call.fromQuery && call.args.some((a) => POLYMORPHIC.has(a.type))) {
    // As PostgREST calls with query-string arguments: each value of unknown type cast to the
    // parameter's, which for a polymorphic one is PostgreSQL's own 42804 ("could not determine
    // polymorphic type because input has type unknown"); a JSON body gets 42P16 from json_to_record.
    const values = JSON.parse(call.argsJson) as Record<string, string>;
    const args = call.args
      .map((a) => `${a.variadic ? 'variadic ' : ''}${ident(a.name)} := ${p.add(values[a.name])}::${a.type}`)
      .join(', ');
    return { expr: `${name}(${args})`, from: '' };
  }
  const definition = call.args.map((a) => `${ident(a.name)} ${a.type}`).join(', ');
  const args = call.args
    .map((a) => `${a.variadic ? 'variadic ' : ''}${ident(a.name)} := pgrst_args.${ident(a.name)}`)
    .join(', ');
  return {
    expr: `${name}(${args})`,
    from: ` from json_to_record(${p.add(call.argsJson)}::json) as pgrst_args(${definition})`,
  };
}

/** For a function returning rows: the CTE producing them, for `readStatement`. */
export function callSource(p: Params, call: CallPlan): MutationSql {
  const { expr, from } = callParts(p, call);
  const sql = from
    ? `select pgrst_call.*${from}, lateral ${expr} as pgrst_call`
    : `select pgrst_call.* from ${expr} as pgrst_call`;
  return { ctes: [], sql };
}

/** For a function returning void, a scalar or an untyped record: one row with page size and body. */
export function scalarCallStatement(
  p: Params,
  call: CallPlan,
  options: { head: boolean; count: boolean; offset?: number; limit?: number },
): string {
  const { expr, from } = callParts(p, call);
  if (call.routine.returns.kind === 'void') return `select ${expr}${from}`;
  if (!call.routine.setOf) {
    return `select null::bigint as total, 1 as page_total, ${options.head ? 'null' : `coalesce(to_json(${expr})::text, 'null')`} as body${from}`;
  }
  let paging = '';
  if (options.limit !== undefined) paging += ` limit ${p.add(options.limit)}`;
  if (options.offset) paging += ` offset ${p.add(options.offset)}`;
  const total = options.count ? '(select pg_catalog.count(*) from pgrst_source)' : 'null::bigint';
  const body = options.head ? 'null' : `coalesce(json_agg(pgrst_t.pgrst_v), '[]')::text`;
  return `with pgrst_source as (select ${expr} as pgrst_v${from}) select ${total} as total, pg_catalog.count(*) as page_total, ${body} as body from (select * from pgrst_source${paging}) as pgrst_t`;
}
