import type { Outcome } from './db.ts';
import { restErrors } from './errors.ts';
import type { PlannedRequest } from './plan.ts';
import { headerKeys } from './query.ts';
import type { MediaChoice } from './request.ts';

/**
 * Stage 4 of the pipeline: status, headers and body of the answer, as PostgREST shapes them
 * (Content-Range on every read, 206 for a partial page of a counted result, 201/204 for writes,
 * Preference-Applied, Location for `return=headers-only`, Content-Profile beside Content-Type when
 * the schema was negotiated).
 */

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

export function contentType(media: MediaChoice): string {
  switch (media.kind) {
    case 'csv':
      return 'text/csv; charset=utf-8';
    case 'object':
      return media.stripNulls
        ? 'application/vnd.pgrst.object+json; nulls=stripped; charset=utf-8'
        : 'application/vnd.pgrst.object+json; charset=utf-8';
    default:
      return media.stripNulls
        ? 'application/vnd.pgrst.array+json; nulls=stripped; charset=utf-8'
        : 'application/json; charset=utf-8';
  }
}

function rangeOf(offset: number, rows: number, total: number | undefined): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

function csvHeaderCell(key: string): string {
  return /[",\r\n]/.test(key) ? `"${key.replaceAll('"', '""')}"` : key;
}

function readBody(planned: PlannedRequest, outcome: Outcome): string | undefined {
  if (outcome.body === undefined) return undefined;
  const plan = planned.plan;
  if (planned.media.kind === 'csv' && plan.read) {
    return `${headerKeys(plan.read).map(csvHeaderCell).join(',')}\n${outcome.body}`;
  }
  return outcome.body;
}

function locationOf(table: string, row: Record<string, unknown>): string {
  const query = Object.entries(row)
    .map(
      ([key, value]) =>
        `${encodeURIComponent(key)}=eq.${encodeURIComponent(value === null ? 'null' : String(value))}`,
    )
    .join('&');
  return `/${encodeURIComponent(table)}${query ? `?${query}` : ''}`;
}

export function buildResponse(planned: PlannedRequest, outcome: Outcome, method: string): RestResponse {
  const plan = planned.plan;
  const headers: Record<string, string> = {};
  const choice = planned.media.plan;
  if (outcome.plan !== undefined && choice) {
    // PostgREST's toMime for MTVndPlan, then its charset.
    const options = choice.options.length > 0 ? `; options=${choice.options.join('|')}` : '';
    headers['content-type'] =
      `application/vnd.pgrst.plan+${choice.format}; for="${choice.forMime}"${options}; charset=utf-8`;
    if (planned.profileNegotiated) headers['content-profile'] = planned.schema.name;
    return method === 'HEAD' ? { status: 200, headers } : { status: 200, headers, body: outcome.plan };
  }
  if (planned.applied.length > 0) headers['preference-applied'] = planned.applied.join(', ');
  const head = method === 'HEAD';

  if (plan.kind === 'mutate') {
    const kind = plan.mutation.kind;
    const representation = planned.prefer.return === 'representation';
    headers['content-range'] =
      kind === 'insert' ? `*/${outcome.total ?? '*'}` : rangeOf(0, outcome.pageTotal, outcome.total);
    if (outcome.locationRow) headers.location = locationOf(plan.mutation.relation.name, outcome.locationRow);
    // PostgREST 13: an upsert merging duplicates answers 200 when it inserted nothing (all updated).
    const created = kind === 'insert' && !(outcome.inserted !== undefined && outcome.inserted <= 0);
    if (representation) {
      headers['content-type'] = contentType(planned.media);
      if (planned.profileNegotiated) headers['content-profile'] = planned.schema.name;
      return { status: created ? 201 : 200, headers, body: readBody(planned, outcome) ?? '[]' };
    }
    return { status: created ? 201 : kind === 'insert' ? 200 : 204, headers };
  }

  if (outcome.noContent) return { status: 204, headers };

  const total = outcome.total;
  const offset = planned.offset;
  const countable = plan.kind === 'read' || (plan.kind === 'call' && plan.countable);
  let status = 200;
  if (countable) {
    headers['content-range'] = rangeOf(offset, outcome.pageTotal, total);
    if (total !== undefined) {
      if (offset > total) {
        const error = restErrors.invalidRange(
          `An offset of ${offset} was requested, but there are only ${total} rows.`,
        );
        Object.assign(error.headers, { 'content-range': `*/${total}` });
        throw error;
      }
      if (outcome.pageTotal < total) status = 206;
    }
  }
  headers['content-type'] = contentType(planned.media);
  if (planned.profileNegotiated) headers['content-profile'] = planned.schema.name;
  const body = head ? undefined : readBody(planned, outcome);
  return body === undefined ? { status, headers } : { status, headers, body };
}
