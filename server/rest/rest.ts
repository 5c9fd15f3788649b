import type { AppContext } from '../context.ts';
import type { RequestScope } from '../db/driver.ts';
import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError } from '../http/errors.ts';
import { execute } from './db.ts';
import { fromDatabaseError, restErrors } from './errors.ts';
import { planRequest } from './plan.ts';
import { type HttpInput, parseApiRequest } from './request.ts';
import { buildResponse, type RestResponse } from './response.ts';
import { registerSchemaCache, SchemaCacheHolder } from './schema-cache.ts';

/** What the data API's routes are built from (decision 088). */
export interface RestDeps {
  ctx: AppContext;
  service: RestService;
}

/**
 * The data API without HTTP: request → plan → SQL → response, against the schema cache it keeps.
 * Routes hand it a parsed HTTP request and the caller's database scope.
 */
export interface RestService {
  handle(input: HttpInput, scope: RequestScope): Promise<RestResponse>;
  readonly schemaCache: SchemaCacheHolder;
  close(): Promise<void>;
}

/** The data API of one server: its schema cache (loaded now, reloaded on NOTIFY) and the pipeline. */
export async function createRest(ctx: AppContext): Promise<RestDeps> {
  const schemas = ctx.config.restSchemas;
  const holder = new SchemaCacheHolder(
    ctx.db,
    (error) => ctx.log.error({ err: error }, 'data API: reloading the schema cache failed'),
    schemas,
  );
  registerSchemaCache(ctx.db, holder);
  const loaded = await holder.reload();
  if (loaded.missing.length > 0) {
    ctx.log.warn(
      { schemas: loaded.missing },
      `data API: PGRST_DB_SCHEMAS lists schemas the database does not have (${loaded.missing.join(', ')}); requests to them find nothing`,
    );
  }
  await holder.listen();
  const maxRows = ctx.config.restMaxRows;
  const parseOptions = { plans: ctx.config.restPlans, schemas };

  const service: RestService = {
    schemaCache: holder,
    async handle(input, scope) {
      let cache = holder.current;
      if (!cache) {
        try {
          cache = await holder.reload();
        } catch (error) {
          throw Object.assign(restErrors.schemaCacheNotReady(), { cause: error });
        }
      }
      const request = parseApiRequest(input, parseOptions);
      const planned = planRequest({ cache, maxRows, aggregates: ctx.config.restAggregates }, request);
      let outcome: Awaited<ReturnType<typeof execute>>;
      try {
        outcome = await execute(ctx.db, scope, planned, { maxRows });
      } catch (error) {
        if (error instanceof DatabaseBusyError) throw restErrors.connectionTimeout(error);
        if (error instanceof ApiError) throw error;
        throw fromDatabaseError(error, scope.role === 'anon');
      }
      return buildResponse(planned, outcome, input.method.toUpperCase());
    },
    close: () => holder.close(),
  };
  return { ctx, service };
}
