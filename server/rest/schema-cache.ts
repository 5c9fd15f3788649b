import type { Database, Queryable } from '../db/driver.ts';
import { quoteIdent } from '../db/sql.ts';
import { type ColumnRow, type RoutineRow, readCatalog } from './db.ts';

/**
 * What the data API knows about the exposed schemas (PGRST_DB_SCHEMAS, `public` by default), read from
 * the PostgreSQL catalog: per schema, its relations (tables, views) with their columns and keys, the
 * relationships between them (foreign keys, also through views and join tables) and its callable
 * functions. Every identifier in a request is checked against this cache before it can reach SQL.
 *
 * As in PostgREST, a request works in one schema (chosen by Accept-Profile / Content-Profile, else
 * the first listed): it names relations and functions of that schema only, and embeds only relations
 * of that schema (a many-to-many junction may be in any exposed schema).
 *
 * The cache is rebuilt as a whole and swapped in one assignment, so a request always sees one
 * consistent version. It is loaded at start-up (after migrations), on `NOTIFY pgrst, 'reload schema'`
 * (PostgREST's convention) and on demand through `reloadSchemaCache`.
 */

/** PostgREST's default `db-schemas`. */
export const DEFAULT_SCHEMAS: readonly string[] = Object.freeze(['public']);

/**
 * The schemas searched after a request's own, as PostgREST's `db-extra-search-path` (default
 * `public`); set only for requests in a schema other than `public` (decision 155).
 */
const EXTRA_SEARCH_PATH = ['public'];

export interface Column {
  name: string;
  /** `format_type` of the column's type, as PostgreSQL spells it. */
  type: string;
  /** pg_type.typname of the type (of the base type for domains): int4, text, _int4, tsvector... */
  typeName: string;
  nullable: boolean;
  generated: boolean;
  /**
   * A computed field (PostgREST): the function of this name, taking the relation's row, stands for a
   * column in select, filters and order. Listed by name only, never by `*`, never written.
   */
  computed?: {
    schema: string;
    name: string;
    /** The relation whose row it takes, when the row comes as a record (a function's results). */
    rowOf?: { schema: string; name: string };
  };
}

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

export interface Relation {
  schema: string;
  name: string;
  kind: RelationKind;
  columns: Column[];
  columnsByName: Map<string, Column>;
  primaryKey: string[];
}

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

export interface Junction {
  table: string;
  schema: string;
  /** Foreign key from the junction to the source relation. */
  constraint1: string;
  /** Foreign key from the junction to the target relation. */
  constraint2: string;
  /** (junction column, source column) pairs. */
  sourceColumns: [string, string][];
  /** (junction column, target column) pairs. */
  targetColumns: [string, string][];
}

export interface Relationship {
  /** Source relation (the one being embedded into). */
  table: string;
  /** Target relation (the embedded one). */
  foreignTable: string;
  cardinality: Cardinality;
  /** The foreign key constraint's name (what `!hint` may name). */
  constraint: string;
  /** (source column, target column) pairs; empty for many-to-many. */
  columns: [string, string][];
  junction?: Junction;
  /** True when one side is a view (derived from a base table's foreign key). */
  throughView: boolean;
  /** A computed relationship (PostgREST): the function, taking the source row, returns the targets. */
  function?: { schema: string; name: string };
  /** The schema of both relations (PostgREST embeds within the request's schema only). */
  schema: string;
}

export interface RoutineParam {
  name: string;
  /** Type as PostgreSQL spells it without a type modifier, used in the call's record definition. */
  type: string;
  typeName: string;
  hasDefault: boolean;
  variadic: boolean;
}

export type RoutineReturn =
  | { kind: 'void' }
  | { kind: 'scalar'; type: string }
  | {
      kind: 'composite';
      columns: Column[];
      columnsByName: Map<string, Column>;
      /** The exposed relation whose row type this is (enables embedding), if any. */
      relation?: string;
    }
  | { kind: 'record' };

/** The types a single unnamed parameter may have for the body to be its argument (PostgREST 12+). */
export type SingleUnnamedType = 'json' | 'jsonb' | 'text' | 'xml' | 'bytea';
const SINGLE_UNNAMED_TYPES: readonly string[] = ['json', 'jsonb', 'text', 'xml', 'bytea'];

export interface Routine {
  schema: string;
  name: string;
  params: RoutineParam[];
  /**
   * A single unnamed parameter of one of PostgREST's raw body types: the whole POST body is the
   * argument — JSON for json/jsonb, the text of a `text/plain` or `text/xml` body for text/xml, the
   * bytes of an `application/octet-stream` body for bytea.
   */
  singleUnnamed?: SingleUnnamedType;
  returns: RoutineReturn;
  setOf: boolean;
  volatility: 'immutable' | 'stable' | 'volatile';
}

/** What a request in one exposed schema may name. */
export interface ExposedSchema {
  name: string;
  /** The schema's relations by name. */
  relations: Map<string, Relation>;
  /** Keyed by source relation name; every target is a relation of this schema. */
  relationships: Map<string, Relationship[]>;
  /** The schema's functions by name (overloads in catalog order). */
  routines: Map<string, Routine[]>;
  /**
   * Type names a `::cast` may use (lower case) → schema and pg_type name: built-in types first, then
   * this schema's, then `public`'s (PostgreSQL's resolution under the request's search_path).
   */
  types: Map<string, { schema: string; name: string }>;
  /** The database's `default_text_search_config`: what a full-text filter without a language uses. */
  textSearchConfig?: string;
  /**
   * The `search_path` a request in this schema runs with (this schema, then `public`), as PostgREST
   * sets it; undefined for `public`, whose requests keep the connection's own (decision 155).
   */
  searchPath?: string;
}

export interface SchemaCache {
  /** The exposed schemas, in PGRST_DB_SCHEMAS order; the first is the default. */
  schemas: Map<string, ExposedSchema>;
  /** Their names, in that order (PGRST106's hint lists them). */
  names: readonly string[];
  /** Listed schemas the database does not have (nothing in them can be found). */
  missing: string[];
}

const KINDS: Record<string, RelationKind> = {
  r: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  p: 'partitioned_table',
};

/** Aliases PostgreSQL accepts for built-in types, mapped to their pg_type names. */
const TYPE_ALIASES: Record<string, string> = {
  integer: 'int4',
  int: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  float: 'float8',
  'double precision': 'float8',
  boolean: 'bool',
  decimal: 'numeric',
  'character varying': 'varchar',
  character: 'bpchar',
  char: 'bpchar',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
  'bit varying': 'varbit',
};

export function resolveTypeName(
  cache: Pick<ExposedSchema, 'types'>,
  name: string,
): { schema: string; name: string } | undefined {
  const normalized = name.trim().toLowerCase().replace(/\s+/g, ' ');
  return cache.types.get(TYPE_ALIASES[normalized] ?? normalized);
}

function makeColumn(row: ColumnRow): Column {
  return {
    name: row.name,
    type: row.type,
    typeName: row.type_name,
    nullable: row.nullable,
    generated: row.generated,
  };
}

// ---------------------------------------------------------------------------------------------
// View column origins: which base column each view column shows, read from the view's rewrite rule.

interface NodeToken {
  depth: number;
  text: string;
}

/** Splits a pg_node_tree text into tokens with their nesting depth (escaped characters respected). */
function tokenize(tree: string): NodeToken[] {
  const tokens: NodeToken[] = [];
  let depth = 0;
  let current = '';
  const flush = () => {
    if (current) tokens.push({ depth, text: current });
    current = '';
  };
  for (let i = 0; i < tree.length; i++) {
    const ch = tree[i] as string;
    if (ch === '\\') {
      current += tree[i + 1] ?? '';
      i++;
    } else if (ch === '{' || ch === '(') {
      flush();
      depth++;
      tokens.push({ depth, text: ch });
    } else if (ch === '}' || ch === ')') {
      flush();
      tokens.push({ depth, text: ch });
      depth--;
    } else if (ch === ' ' || ch === '\n') {
      flush();
    } else {
      current += ch;
    }
  }
  flush();
  return tokens;
}

interface TargetOrigin {
  column: string;
  tableOid: string;
  columnNumber: number;
}

/** The top-level target list of the view's query: output name → origin table oid and attnum. */
export function viewColumnOrigins(action: string): TargetOrigin[] {
  const tokens = tokenize(action);
  const queryIndex = tokens.findIndex((t) => t.text === 'QUERY');
  if (queryIndex < 0) return [];
  const queryDepth = (tokens[queryIndex] as NodeToken).depth;
  // the query's own `:targetList` is the one at the query node's depth
  const listIndex = tokens.findIndex(
    (t, i) => i > queryIndex && t.text === ':targetList' && t.depth === queryDepth,
  );
  if (listIndex < 0) return [];
  const origins: TargetOrigin[] = [];
  let entry: Partial<{ name: string; table: string; column: number; junk: boolean }> | undefined;
  const entryDepth = queryDepth + 2;
  for (let i = listIndex + 1; i < tokens.length; i++) {
    const token = tokens[i] as NodeToken;
    if (token.depth <= queryDepth) break;
    if (token.depth !== entryDepth) continue;
    if (token.text === 'TARGETENTRY') entry = {};
    else if (token.text === '}' && entry) {
      if (entry.name && entry.table && entry.table !== '0' && entry.column && !entry.junk) {
        origins.push({ column: entry.name, tableOid: entry.table, columnNumber: entry.column });
      }
      entry = undefined;
    } else if (entry) {
      const value = tokens[i + 1]?.text;
      if (token.text === ':resname') entry.name = value === '<>' ? undefined : value;
      else if (token.text === ':resorigtbl') entry.table = value;
      else if (token.text === ':resorigcol') entry.column = Number(value);
      else if (token.text === ':resjunk') entry.junk = value === 'true';
    }
  }
  return origins;
}

// ---------------------------------------------------------------------------------------------

interface ForeignKey {
  name: string;
  table: string; // oid
  foreignTable: string; // oid
  columns: string[];
  foreignColumns: string[];
}

/**
 * Reads the catalog into a cache of the given schemas (PGRST_DB_SCHEMAS; the first is the default).
 * Relations, columns and keys are read for the whole database (views of an exposed schema may show
 * tables of another); only what belongs to an exposed schema is kept.
 */
export async function loadSchemaCache(
  db: Queryable,
  schemas: readonly string[] = DEFAULT_SCHEMAS,
): Promise<SchemaCache> {
  // Functions of `public` are read even when it is not exposed: a request's search_path ends with it,
  // so they may be computed fields of another schema's relations (never called as RPC from there).
  const routineSchemas = schemas.includes('public') ? [...schemas] : [...schemas, 'public'];
  const {
    relationRows,
    columnRows,
    keyRows,
    viewRows,
    routineRows,
    typeRows,
    textSearchConfig,
    namespaceRows,
  } = await readCatalog(db, schemas, routineSchemas);
  const exposedSchemas = new Set(schemas);

  const columnsByOid = new Map<string, ColumnRow[]>();
  for (const row of columnRows) {
    const list = columnsByOid.get(row.oid) ?? [];
    list.push(row);
    columnsByOid.set(row.oid, list);
  }

  // Every relation of the database by oid (base tables of exposed views may live elsewhere).
  const byOid = new Map<string, Relation>();
  for (const row of relationRows) {
    const columns = (columnsByOid.get(row.oid) ?? []).map(makeColumn);
    byOid.set(row.oid, {
      schema: row.schema,
      name: row.name,
      kind: KINDS[row.kind] ?? 'table',
      columns,
      columnsByName: new Map(columns.map((c) => [c.name, c])),
      primaryKey: [],
    });
  }
  const uniqueKeys = new Map<string, string[][]>();
  const foreignKeys: ForeignKey[] = [];
  for (const key of keyRows) {
    const relation = byOid.get(key.oid);
    if (!relation) continue;
    if (key.type === 'p') relation.primaryKey = key.columns;
    if (key.type === 'p' || key.type === 'u') {
      const list = uniqueKeys.get(key.oid) ?? [];
      list.push(key.columns);
      uniqueKeys.set(key.oid, list);
    }
    if (key.type === 'f' && byOid.has(key.foreign_oid)) {
      foreignKeys.push({
        name: key.name,
        table: key.oid,
        foreignTable: key.foreign_oid,
        columns: key.columns,
        foreignColumns: key.foreign_columns,
      });
    }
  }
  const isUnique = (oid: string, columns: string[]) =>
    (uniqueKeys.get(oid) ?? []).some(
      (unique) => unique.length === columns.length && unique.every((c) => columns.includes(c)),
    );

  const schemaOf = (oid: string) => byOid.get(oid)?.schema;
  const exposed = (oid: string) => exposedSchemas.has(schemaOf(oid) as string);
  /** Both relations in one exposed schema: the only relationships PostgREST embeds. */
  const sameExposedSchema = (a: string, b: string) => exposed(a) && schemaOf(a) === schemaOf(b);

  // View column → (base oid, base column), followed through views of views.
  const viewOrigins = new Map<string, Map<string, { oid: string; column: string }>>();
  const rawOrigins = new Map<string, TargetOrigin[]>();
  for (const view of viewRows) rawOrigins.set(view.oid, viewColumnOrigins(view.action));
  const resolveOrigin = (oid: string, column: string, seen: Set<string>): { oid: string; column: string } => {
    const origins = rawOrigins.get(oid);
    if (!origins || seen.has(oid)) return { oid, column };
    seen.add(oid);
    const origin = origins.find((o) => o.column === column);
    if (!origin) return { oid, column };
    const base = columnsByOid.get(origin.tableOid)?.find((c) => c.position === origin.columnNumber);
    if (!base) return { oid, column };
    return resolveOrigin(origin.tableOid, base.name, seen);
  };
  for (const [oid, origins] of rawOrigins) {
    const map = new Map<string, { oid: string; column: string }>();
    for (const origin of origins) {
      const resolved = resolveOrigin(oid, origin.column, new Set());
      if (resolved.oid !== oid) map.set(origin.column, resolved);
    }
    viewOrigins.set(oid, map);
  }

  /**
   * The relations that show `columns` of base relation `oid`: the relation itself, and every exposed
   * view showing all of them (with the view's column names).
   */
  const showing = (oid: string, columns: string[]): { oid: string; columns: string[]; view: boolean }[] => {
    const out = [{ oid, columns, view: false }];
    for (const [viewOid, map] of viewOrigins) {
      if (!exposed(viewOid)) continue;
      const mapped = columns.map((column) => {
        for (const [viewColumn, origin] of map) {
          if (origin.oid === oid && origin.column === column) return viewColumn;
        }
        return undefined;
      });
      if (mapped.every((c) => c !== undefined))
        out.push({ oid: viewOid, columns: mapped as string[], view: true });
    }
    return out;
  };

  // Relationships by schema, then by source relation name.
  const relationshipsBySchema = new Map<string, Map<string, Relationship[]>>();
  for (const schema of schemas) relationshipsBySchema.set(schema, new Map());
  const add = (rel: Relationship) => {
    const relationships = relationshipsBySchema.get(rel.schema);
    if (!relationships) return;
    const list = relationships.get(rel.table) ?? [];
    list.push(rel);
    relationships.set(rel.table, list);
  };
  const nameOf = (oid: string) => (byOid.get(oid) as Relation).name;

  for (const fk of foreignKeys) {
    const toOne = isUnique(fk.table, fk.columns);
    for (const source of showing(fk.table, fk.columns)) {
      for (const target of showing(fk.foreignTable, fk.foreignColumns)) {
        if (!sameExposedSchema(source.oid, target.oid)) continue;
        const schema = schemaOf(source.oid) as string;
        const pairs = source.columns.map((c, i) => [c, target.columns[i] as string] as [string, string]);
        const throughView = source.view || target.view;
        add({
          table: nameOf(source.oid),
          foreignTable: nameOf(target.oid),
          cardinality: toOne ? 'one-to-one' : 'many-to-one',
          constraint: fk.name,
          columns: pairs,
          throughView,
          schema,
        });
        add({
          table: nameOf(target.oid),
          foreignTable: nameOf(source.oid),
          cardinality: toOne ? 'one-to-one' : 'one-to-many',
          constraint: fk.name,
          columns: pairs.map(([a, b]) => [b, a]),
          throughView,
          schema,
        });
      }
    }
  }

  // Many-to-many through a junction table (in any exposed schema) whose primary key holds both
  // foreign keys, between two relations of one exposed schema.
  const fksByTable = new Map<string, ForeignKey[]>();
  for (const fk of foreignKeys) {
    const list = fksByTable.get(fk.table) ?? [];
    list.push(fk);
    fksByTable.set(fk.table, list);
  }
  for (const [junctionOid, fks] of fksByTable) {
    const junction = byOid.get(junctionOid) as Relation;
    if (!exposed(junctionOid) || junction.kind === 'view') continue;
    const pk = junction.primaryKey;
    const candidates = fks.filter((fk) => fk.columns.every((c) => pk.includes(c)));
    for (const a of candidates) {
      for (const b of candidates) {
        if (a === b || !sameExposedSchema(a.foreignTable, b.foreignTable)) continue;
        add({
          table: nameOf(a.foreignTable),
          foreignTable: nameOf(b.foreignTable),
          cardinality: 'many-to-many',
          constraint: junction.name,
          columns: [],
          junction: {
            table: junction.name,
            schema: junction.schema,
            constraint1: a.name,
            constraint2: b.name,
            sourceColumns: a.columns.map((c, i) => [c, a.foreignColumns[i] as string]),
            targetColumns: b.columns.map((c, i) => [c, b.foreignColumns[i] as string]),
          },
          throughView: false,
          schema: schemaOf(a.foreignTable) as string,
        });
      }
    }
  }

  const relationsBySchema = new Map<string, Map<string, Relation>>();
  for (const schema of schemas) relationsBySchema.set(schema, new Map());
  for (const relation of byOid.values()) relationsBySchema.get(relation.schema)?.set(relation.name, relation);

  // Computed fields and relationships: functions of one row of an exposed relation (PostgREST's
  // "computed fields" and "computed relationships"; a setof function with `rows 1` is to-one). As
  // PostgreSQL resolves `row.fn` under the request's search_path, a function of the relation's own
  // schema comes before one of `public`.
  const ownSchemaFirst = [...routineRows].sort(
    (a, b) =>
      Number(a.schema !== schemaOf(a.first_arg_relid)) - Number(b.schema !== schemaOf(b.first_arg_relid)),
  );
  for (const row of ownSchemaFirst) {
    const inputs =
      row.arg_modes.length > 0 ? row.arg_modes.filter((m) => m === 'i' || m === 'b') : row.arg_types;
    if (row.nargs !== 1 || inputs.length !== 1 || row.arg_modes.includes('v')) continue;
    const source = byOid.get(row.first_arg_relid);
    if (!source || !exposed(row.first_arg_relid) || source.columnsByName.has(row.name)) continue;
    if (row.schema !== source.schema && row.schema !== 'public') continue;
    const fn = { schema: row.schema, name: row.name };
    const target = row.return_typtype === 'c' ? byOid.get(row.return_relid) : undefined;
    if (target) {
      if (!sameExposedSchema(row.first_arg_relid, row.return_relid)) continue;
      const relationships = relationshipsBySchema.get(source.schema) as Map<string, Relationship[]>;
      const list = relationships.get(source.name) ?? [];
      list.push({
        table: source.name,
        foreignTable: target.name,
        cardinality: !row.set_of || row.rows === 1 ? 'many-to-one' : 'one-to-many',
        constraint: row.name,
        columns: [],
        throughView: false,
        function: fn,
        schema: source.schema,
      });
      relationships.set(source.name, list);
    } else if (!row.set_of && row.return_typtype !== 'c' && row.return_typtype !== 'p') {
      source.columnsByName.set(row.name, {
        name: row.name,
        type: row.return_type,
        typeName: row.return_type_name,
        nullable: true,
        generated: true,
        computed: fn,
      });
    }
  }

  const routinesBySchema = new Map<string, Map<string, Routine[]>>();
  for (const schema of schemas) routinesBySchema.set(schema, new Map());
  for (const row of routineRows) {
    const routines = routinesBySchema.get(row.schema);
    if (!routines) continue; // `public` read for computed fields only
    const routine = makeRoutine(row, byOid, columnsByOid);
    if (!routine) continue;
    const list = routines.get(routine.name) ?? [];
    list.push(routine);
    routines.set(routine.name, list);
  }

  const present = new Set(namespaceRows.map((row) => row.name));
  const views = new Map<string, ExposedSchema>();
  for (const schema of schemas) {
    // a type of the request's schema or of `public` does not hide a built-in one of the same name
    const types = new Map<string, { schema: string; name: string }>();
    for (const from of ['pg_catalog', schema, 'public']) {
      for (const row of typeRows) {
        const key = row.name.toLowerCase();
        if (row.schema === from && !types.has(key)) types.set(key, row);
      }
    }
    views.set(schema, {
      name: schema,
      relations: relationsBySchema.get(schema) as Map<string, Relation>,
      relationships: relationshipsBySchema.get(schema) as Map<string, Relationship[]>,
      routines: routinesBySchema.get(schema) as Map<string, Routine[]>,
      types,
      ...(textSearchConfig ? { textSearchConfig } : {}),
      ...(schema === 'public'
        ? {}
        : {
            searchPath: [schema, ...EXTRA_SEARCH_PATH.filter((s) => s !== schema)].map(quoteIdent).join(', '),
          }),
    });
  }
  return { schemas: views, names: [...schemas], missing: schemas.filter((s) => !present.has(s)) };
}

function makeRoutine(
  row: RoutineRow,
  byOid: Map<string, Relation>,
  columnsByOid: Map<string, ColumnRow[]>,
): Routine | undefined {
  const modes = row.arg_modes.length > 0 ? row.arg_modes : row.arg_types.map(() => 'i');
  const inputs: RoutineParam[] = [];
  const outputs: Column[] = [];
  const firstDefault = row.nargs - row.ndefaults;
  let inputIndex = 0;
  modes.forEach((mode, i) => {
    const name = row.arg_names[i] ?? '';
    const type = row.arg_types[i] ?? 'unknown';
    const typeName = row.arg_type_names[i] ?? 'unknown';
    if (mode === 'i' || mode === 'b' || mode === 'v') {
      inputs.push({
        name,
        type,
        typeName,
        hasDefault: inputIndex >= firstDefault,
        variadic: mode === 'v',
      });
      inputIndex++;
    }
    if (mode === 'o' || mode === 'b' || mode === 't') {
      outputs.push({ name, type, typeName, nullable: true, generated: false });
    }
  });

  const routine: Routine = {
    schema: row.schema,
    name: row.name,
    params: inputs,
    returns: { kind: 'void' },
    setOf: row.set_of,
    volatility: row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile',
  };

  if (inputs.some((p) => p.name === '')) {
    // Unnamed parameters cannot be passed by name; one unnamed json(b), text, xml or bytea parameter
    // takes the body of its media type.
    const only = inputs[0];
    if (inputs.length !== 1 || !only || !SINGLE_UNNAMED_TYPES.includes(only.typeName)) return undefined;
    routine.singleUnnamed = only.typeName as SingleUnnamedType;
    routine.params = [];
  }

  if (row.return_type_name === 'void') routine.returns = { kind: 'void' };
  else if (row.return_typtype === 'c' && row.return_relid !== '0') {
    const columns = (columnsByOid.get(row.return_relid) ?? []).map(makeColumn);
    const relation = byOid.get(row.return_relid);
    routine.returns = {
      kind: 'composite',
      columns,
      // A function returning a relation's rows offers that relation's computed fields too, as
      // PostgREST's do (`select=…,field` on `rpc/fn`); `*` stays the columns.
      columnsByName: new Map([
        ...[...(relation?.columnsByName.values() ?? [])].flatMap((c) =>
          c.computed && relation
            ? [
                [
                  c.name,
                  {
                    ...c,
                    computed: { ...c.computed, rowOf: { schema: relation.schema, name: relation.name } },
                  },
                ] as const,
              ]
            : [],
        ),
        ...columns.map((c) => [c.name, c] as const),
      ]),
      // PostgREST embeds from a function's rows through the relation of that name in the function's
      // schema (its `funcTableName`): only a row type of the same schema can have relationships.
      ...(relation && relation.schema === row.schema ? { relation: relation.name } : {}),
    };
  } else if (row.return_type_name === 'record') {
    routine.returns =
      outputs.length > 0
        ? { kind: 'composite', columns: outputs, columnsByName: new Map(outputs.map((c) => [c.name, c])) }
        : { kind: 'record' };
  } else routine.returns = { kind: 'scalar', type: row.return_type };
  return routine;
}

// ---------------------------------------------------------------------------------------------

/**
 * Holds the current cache for one database, reloads it (coalescing reloads requested while one
 * runs) and listens for PostgREST's reload notification, reloading also when the listening
 * connection was re-opened (a notification may have been lost meanwhile, decision 172).
 */
export class SchemaCacheHolder {
  private cache: SchemaCache | undefined;
  private loading: Promise<SchemaCache> | undefined;
  private again = false;
  private stopListening: (() => Promise<void>) | undefined;
  private stopResets: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void = () => {},
    /** PGRST_DB_SCHEMAS: the exposed schemas, the first the default. */
    readonly schemas: readonly string[] = DEFAULT_SCHEMAS,
  ) {}

  get current(): SchemaCache | undefined {
    return this.cache;
  }

  reload(): Promise<SchemaCache> {
    if (this.loading) {
      this.again = true;
      return this.loading.then(() => this.reload());
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          this.cache = await loadSchemaCache(this.db, this.schemas);
        } while (this.again);
        return this.cache;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  async listen(): Promise<void> {
    this.stopListening = await this.db.listen('pgrst', (payload) => {
      const command = payload.trim();
      if (command === '' || command === 'reload schema') {
        this.reload().catch(this.onError);
      }
    });
    // A `NOTIFY pgrst` sent while the listening connection was down is lost: reload anyway.
    this.stopResets = this.db.onListenerReset(() => this.reload().catch(this.onError));
  }

  async close(): Promise<void> {
    this.stopResets?.();
    this.stopResets = undefined;
    await this.stopListening?.();
    this.stopListening = undefined;
    await this.loading?.catch(() => {});
  }
}

const holders = new WeakMap<Database, SchemaCacheHolder>();

export function registerSchemaCache(db: Database, holder: SchemaCacheHolder): void {
  holders.set(db, holder);
}

/**
 * Rebuilds the data API's schema cache for this database now (tests and tools: after changing the
 * schema, instead of `NOTIFY pgrst, 'reload schema'` and waiting).
 */
export async function reloadSchemaCache(db: Database): Promise<void> {
  const holder = holders.get(db);
  if (!holder) throw new Error('no data API is serving this database');
  await holder.reload();
}
