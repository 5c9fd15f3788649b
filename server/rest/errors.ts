import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError, toApiError } from '../http/errors.ts';
import type { AuthFailure } from '../http/request-auth.ts';
import type { Relationship } from './schema-cache.ts';

/**
 * Every error the data API answers with, made here and nowhere else, in PostgREST's shape
 * `{code, message, details, hint}` with its codes and statuses. PostgreSQL errors are translated in
 * one place (`fromDatabaseError`), as PostgREST does: the database's own code, message, detail and
 * hint pass through (that is what PostgREST shows), everything else stays in the log.
 */

const err = (status: number, code: string, message: string, details?: unknown, hint?: string | null) =>
  new ApiError(status, code, message, { details: details ?? null, hint: hint ?? null });

function describeRelationship(rel: Relationship): Record<string, string> {
  const cols = (list: string[]) => `(${list.join(', ')})`;
  if (rel.junction) {
    return {
      cardinality: 'many-to-many',
      embedding: `${rel.table} with ${rel.foreignTable}`,
      relationship: `${rel.junction.table} using ${rel.junction.constraint1}${cols(rel.junction.sourceColumns.map(([j]) => j))} and ${rel.junction.constraint2}${cols(rel.junction.targetColumns.map(([j]) => j))}`,
    };
  }
  return {
    cardinality: rel.cardinality,
    embedding: `${rel.table} with ${rel.foreignTable}`,
    relationship: `${rel.constraint} using ${rel.table}${cols(rel.columns.map(([a]) => a))} and ${rel.foreignTable}${cols(rel.columns.map(([, b]) => b))}`,
  };
}

export const restErrors = {
  // Group 1: the request
  queryParam: (message: string, details: string) => err(400, 'PGRST100', message, details),
  tooComplex: (details: string) => err(400, 'PGRST100', 'The request is too complex', details),
  invalidRpcMethod: (method: string) => err(405, 'PGRST101', `Cannot use the ${method} method on RPC`),
  invalidBody: (message: string) => err(400, 'PGRST102', message),
  invalidRange: (details: string) => err(416, 'PGRST103', 'Requested range not satisfiable', details),
  unacceptableSchema: (schema: string, exposed: readonly string[]) =>
    err(
      406,
      'PGRST106',
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(', ')}`,
    ),
  mediaType: (types: string[]) =>
    err(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`),
  notEmbedded: (resource: string) =>
    err(
      400,
      'PGRST108',
      `'${resource}' is not an embedded resource in this request`,
      null,
      `Verify that '${resource}' is included in the 'select' query parameter.`,
    ),
  singularity: (rows: number) =>
    err(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${rows} rows`,
    ),
  unsupportedMethod: (method: string) => err(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  relatedOrderNotToOne: (origin: string, target: string) =>
    err(
      400,
      'PGRST118',
      `A related order on '${target}' is not possible`,
      `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
    ),
  unacceptableFilter: (target: string) =>
    err(
      400,
      'PGRST120',
      `Bad operator on the '${target}' embedded resource`,
      'Only is null or not is null filters are allowed on embedded resources',
    ),
  invalidPreferences: (prefs: string[]) =>
    err(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${prefs.join(', ')}`,
    ),
  aggregatesNotAllowed: () => err(400, 'PGRST123', 'Use of aggregate functions is not allowed'),
  notImplemented: (details: string) => err(400, 'PGRST127', 'Feature not implemented', details),
  maxAffected: (rows: number) =>
    err(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${rows} rows`,
    ),
  invalidPath: () => err(404, 'PGRST125', 'Invalid path specified in request URL'),
  openApiDisabled: () => err(404, 'PGRST126', 'Root endpoint metadata is disabled'),
  maxAffectedRpc: () =>
    err(
      400,
      'PGRST128',
      'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    ),
  payloadTooLarge: (limit: number) =>
    err(413, 'PGRST102', 'Request body is too large', `The limit is ${limit} bytes`),

  // Group 2: the schema cache
  noRelationship: (
    schema: string,
    parent: string,
    child: string,
    hint: string | undefined,
    suggestion: string | null,
  ) =>
    err(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent}' and '${child}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${child}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${schema}', but no matches were found.`,
      suggestion,
    ),
  ambiguousRelationship: (parent: string, child: string, rels: Relationship[]) =>
    err(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent}' and '${child}'`,
      rels.map(describeRelationship),
      `Try changing '${child}' to one of the following: ${rels
        .map((r) => `'${r.foreignTable}!${r.junction ? r.junction.table : r.constraint}'`)
        .join(', ')}. Find the desired relationship in the 'details' key.`,
    ),
  /**
   * PGRST202. `body`: how the call's body came — none (GET), JSON, or raw text, xml or bytes, for
   * which PostgREST names only the single unnamed parameter that could have taken it, with no hint.
   */
  noFunction: (
    schema: string,
    name: string,
    args: string[],
    suggestion: string | null,
    body: 'none' | 'json' | 'text' | 'xml' | 'bytea',
  ) => {
    const raw = body === 'text' || body === 'xml' || body === 'bytea';
    const params =
      args.length === 0
        ? ' without parameters'
        : ` with parameter${args.length > 1 ? 's' : ''} ${args.join(', ')}`;
    return err(
      404,
      'PGRST202',
      `Could not find the function ${schema}.${name}${raw ? '' : args.length === 0 ? ' without parameters' : `(${args.join(', ')})`} in the schema cache`,
      `Searched for the function ${schema}.${name}${
        raw
          ? ` with a single unnamed ${body} parameter`
          : `${params}${body === 'json' ? ' or with a single unnamed json/jsonb parameter' : ''}`
      }, but no matches were found in the schema cache.`,
      raw ? null : suggestion,
    );
  },
  ambiguousFunction: (signatures: string[]) =>
    err(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${signatures.join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    ),
  columnNotFound: (relation: string, column: string) =>
    err(400, 'PGRST204', `Could not find the '${column}' column of '${relation}' in the schema cache`),
  tableNotFound: (schema: string, name: string, suggestion: string | null) =>
    err(
      404,
      'PGRST205',
      `Could not find the table '${schema}.${name}' in the schema cache`,
      null,
      suggestion,
    ),
  /**
   * PostgREST's answer when no pool connection came free in time (hasql's acquisition timeout). It
   * answers 504; we answer 503 with Retry-After (decision 092), which postgrest-js retries for reads.
   */
  connectionTimeout: (cause: unknown) =>
    new ApiError(503, 'PGRST003', 'Timed out acquiring connection from connection pool.', {
      headers: { 'retry-after': '1' },
      cause,
    }),
  schemaCacheNotReady: () =>
    new ApiError(503, 'PGRST002', 'Could not query the database for the schema cache. Retrying.', {
      headers: { 'retry-after': '1' },
    }),

  // Errors PostgreSQL itself would raise for names the request uses; answered without a round trip.
  undefinedColumn: (relation: string, column: string) =>
    err(400, '42703', `column ${relation}.${column} does not exist`),
  undefinedType: (name: string) => err(400, '42704', `type "${name}" does not exist`),
  /** pg-safeupdate's refusal, as hosted Supabase loads it for the data API. */
  whereRequired: (command: 'UPDATE' | 'DELETE') => err(400, '21000', `${command} requires a WHERE clause`),
  emptyIdentifier: () => err(400, '42601', 'zero-length delimited identifier at or near '),

  // Group 3: the JWT
  accountGone: () =>
    new ApiError(401, 'PGRST303', 'JWT claims validation failed', {
      details: 'The account of this token no longer exists',
      headers: {
        'www-authenticate':
          'Bearer error="invalid_token", error_description="The account of this token no longer exists"',
      },
    }),
  authFailure: (failure: AuthFailure): ApiError => {
    switch (failure.kind) {
      case 'missing_apikey':
        return new ApiError(401, 'PGRST302', failure.message, {
          hint: 'No `apikey` request header or url param was found.',
          headers: { 'www-authenticate': 'Bearer' },
        });
      case 'invalid_apikey':
        return new ApiError(401, 'PGRST301', failure.message, {
          hint: 'Double check your Supabase `anon` or `service_role` API key.',
          headers: {
            'www-authenticate': 'Bearer error="invalid_token", error_description="Invalid API key"',
          },
        });
      case 'jwt_expired':
        return new ApiError(401, 'PGRST303', 'JWT expired', {
          headers: { 'www-authenticate': 'Bearer error="invalid_token", error_description="JWT expired"' },
        });
      case 'jwt_invalid':
        return new ApiError(401, 'PGRST301', failure.message, {
          headers: {
            'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(failure.message)}`,
          },
        });
      case 'unknown_role':
        return new ApiError(401, '22023', `role "${failure.role}" does not exist`);
    }
  },
};

export interface DatabaseErrorLike {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

function isDatabaseError(error: unknown): error is DatabaseErrorLike & { code: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as DatabaseErrorLike).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as DatabaseErrorLike).code as string)
  );
}

/** PostgREST's mapping from SQLSTATE to HTTP status. */
export function statusForSqlState(code: string, message: string, anonymous: boolean): number {
  const two = code.slice(0, 2);
  if (code === '42501') return anonymous ? 401 : 403;
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '21000') {
    // A client sending the same row twice to an upsert is the client's error, not the server's.
    if (message.endsWith('requires a WHERE clause') || message.includes('cannot affect row a second time'))
      return 400;
    return 500;
  }
  if (code === '22023' && message.startsWith('role') && message.endsWith('does not exist')) return 401;
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404;
  if (code === '42P01') return 404;
  if (code === '42P17') return 500;
  if (code === 'P0001') return 400;
  if (code === '57P01') return 503;
  if (code === '53400') return 500;
  switch (two) {
    case '08':
    case '53':
      return 503;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
  }
  if (two === 'PT') {
    const status = Number(code.slice(2));
    return status >= 100 && status <= 599 ? status : 500;
  }
  return 400;
}

/** `RAISE sqlstate 'PGRST' using message = '{json}', detail = '{json}'`: full control of the answer. */
function raisedPgrst(error: DatabaseErrorLike): ApiError {
  try {
    const body = JSON.parse(error.message ?? '') as Record<string, unknown>;
    const meta = JSON.parse(error.detail ?? '') as Record<string, unknown>;
    if (typeof body.code !== 'string' || typeof body.message !== 'string' || typeof meta.status !== 'number')
      throw new Error('shape');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries((meta.headers as Record<string, unknown>) ?? {})) {
      if (typeof value === 'string' && /^[A-Za-z0-9-]+$/.test(name)) headers[name.toLowerCase()] = value;
    }
    const status = meta.status >= 100 && meta.status <= 599 ? meta.status : 500;
    return new ApiError(status, body.code, body.message, {
      details: body.details ?? null,
      hint: typeof body.hint === 'string' ? body.hint : null,
      headers,
      cause: error,
    });
  } catch {
    return new ApiError(500, 'PGRST121', 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error', {
      details: error.detail
        ? `Invalid JSON value for DETAIL: '${error.detail}'`
        : 'DETAIL is missing in the RAISE statement',
      hint: "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
      cause: error,
    });
  }
}

/** A PostgreSQL error raised while serving a request, as PostgREST would answer it. */
export function fromDatabaseError(error: unknown, anonymous: boolean): ApiError {
  if (!isDatabaseError(error)) return toApiError(error);
  if (error.code === 'PGRST') return raisedPgrst(error);
  const message = error.message ?? '';
  const status = statusForSqlState(error.code, message, anonymous);
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  return new ApiError(status, error.code, message, {
    details: error.detail || null,
    hint: error.hint || null,
    headers,
    cause: error,
  });
}

/**
 * The service's error handler hook: our own errors pass through; what Fastify raises while reading
 * a request (body too large, unreadable body) gets PostgREST's shape; anything else is left to the
 * shared handler (an opaque 500).
 */
export function mapRestError(error: unknown, bodyLimit: number): ApiError | undefined {
  if (error instanceof DatabaseBusyError) return restErrors.connectionTimeout(error);
  if (error instanceof ApiError) return error;
  const fastify = error as { statusCode?: number; code?: string; message?: string };
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return restErrors.payloadTooLarge(bodyLimit);
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return new ApiError(fastify.statusCode, 'PGRST102', fastify.message ?? 'Invalid request body', {
      cause: error,
    });
  }
  return undefined;
}
