import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseBusyError } from '../db/gate.ts';

/**
 * One error type for every service. Services make errors through their own catalogue of factory
 * functions and render them in the wire format their clients expect; internal causes (SQL, stack
 * traces) are logged, never sent.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly hint: string | null;
  /** Extra response headers (e.g. WWW-Authenticate, Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      details?: unknown;
      hint?: string | null;
      cause?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details ?? null;
    this.hint = options.hint ?? null;
    this.headers = options.headers ?? {};
  }
}

/** How each service spells an error on the wire. */
export type ErrorRenderer = (error: ApiError) => unknown;

export const renderers = {
  /** PostgREST: {code, message, details, hint}. */
  rest: (error) => ({ code: error.code, message: error.message, details: error.details, hint: error.hint }),
  /** GoTrue: {code, error_code, msg}. */
  auth: (error) => ({ code: error.status, error_code: error.code, msg: error.message }),
  /** Supabase Storage: {statusCode, error, message}. */
  storage: (error) => ({ statusCode: String(error.status), error: error.code, message: error.message }),
  /** Functions and the platform's own endpoints. */
  plain: (error) => ({ error: error.code, message: error.message }),
} satisfies Record<string, ErrorRenderer>;

const reasons: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'internal_server_error',
  503: 'service_unavailable',
};

/**
 * Turns anything thrown inside a route into an ApiError: our own errors pass through; errors Fastify
 * raises while reading the request (bad JSON, wrong content type, body too large, schema validation)
 * keep their 4xx status; everything else is an unexpected failure and becomes an opaque 500.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // The database had no connection free in time (db/gate.ts): busy, not broken.
  if (error instanceof DatabaseBusyError) {
    return new ApiError(503, 'service_unavailable', error.message, {
      headers: { 'retry-after': '1' },
      cause: error,
    });
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (fastifyError.validation) {
    return new ApiError(400, 'validation_failed', fastifyError.message ?? 'Invalid request', {
      cause: error,
    });
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    let message = fastifyError.message ?? 'Bad request';
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      message = 'Request body is not valid JSON';
    }
    return new ApiError(status, reasons[status] ?? 'bad_request', message, { cause: error });
  }
  return new ApiError(500, 'internal_server_error', 'An unexpected error occurred', { cause: error });
}

export function sendError(reply: FastifyReply, error: ApiError, render: ErrorRenderer): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).type('application/json; charset=utf-8').send(render(error));
}

/**
 * Registers a service's error and not-found handlers (encapsulated: they apply under the service's
 * prefix only), so every answer from the service, even for a path it does not have, is JSON in the
 * service's own format and never the web app.
 */
export function registerServiceErrors(
  app: FastifyInstance,
  render: ErrorRenderer,
  options: { mapError?: (error: unknown) => ApiError | undefined } = {},
): void {
  app.setErrorHandler((error, request: FastifyRequest, reply) => {
    const apiError = options.mapError?.(error) ?? toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ err: error }, 'request rejected');
    return sendError(reply, apiError, render);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ApiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
      render,
    ),
  );
}
