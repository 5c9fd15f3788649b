import type { Database, RequestScope } from '../../db/driver.ts';
import { FunctionErrors } from '../../functions/errors.ts';
import { USER_FOLDER_BUCKET } from './account-deletion.ts';
import * as sql from './db.ts';

/** Bumped when a section changes shape, so a reader of an old file knows what it holds. */
export const EXPORT_FORMAT_VERSION = 1;
/** The action under which exports are counted by the product's rate limiter. */
export const EXPORT_RATE_ACTION = 'functions:gdpr_data_export';

/**
 * The product tables with a row per user the owner reads through RLS (decision 071). A new table
 * holding user data belongs here; the export's integration test fails until it is.
 */
export const OWNED_TABLES: readonly sql.OwnedTable[] = [
  { section: 'profile', table: 'profiles', owner: 'user_id', order: 'created_at', single: true },
  {
    section: 'privacy_settings',
    table: 'privacy_settings',
    owner: 'user_id',
    order: 'created_at',
    single: true,
  },
  { section: 'roles', table: 'user_roles', owner: 'user_id', order: 'created_at' },
  { section: 'subscriptions', table: 'scammer_subscriptions', owner: 'user_id', order: 'created_at' },
  { section: 'votes', table: 'product_votes', owner: 'user_id', order: 'created_at' },
  { section: 'comments', table: 'product_comments', owner: 'user_id', order: 'created_at' },
  { section: 'comment_likes', table: 'product_comment_likes', owner: 'user_id', order: 'created_at' },
  { section: 'comment_reports', table: 'product_comment_reports', owner: 'reporter_id', order: 'created_at' },
  { section: 'saved_articles', table: 'saved_articles', owner: 'user_id', order: 'saved_at' },
  { section: 'notifications', table: 'notifications', owner: 'user_id', order: 'created_at' },
  { section: 'scammer_reports', table: 'scammer_reports', owner: 'reporter_user_id', order: 'created_at' },
  { section: 'scammer_watches', table: 'scammer_watches', owner: 'user_id', order: 'created_at' },
  {
    section: 'scammer_report_replies',
    table: 'scammer_report_replies',
    owner: 'user_id',
    order: 'created_at',
  },
  { section: 'bookings', table: 'bookings', owner: 'user_id', order: 'created_at' },
  { section: 'admin_posts', table: 'admin_posts', owner: 'author_id', order: 'created_at' },
  { section: 'brand_claims', table: 'brand_claims', owner: 'user_id', order: 'created_at' },
];

export interface ExportDeps {
  db: Database;
  /** Where browsers reach the API (API_EXTERNAL_URL); unset = the origin the request came to. */
  apiUrl: string | undefined;
  exportsPerHour: number;
}

interface FileEntry {
  id: string;
  bucket: string;
  name: string;
  size: number | null;
  content_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserDataExport {
  fileName: string;
  document: Record<string, unknown>;
}

/** storage-js getPublicUrl: `${url}/storage/v1/object/public/${bucket}/${name}`, encodeURI'd. */
export function publicUrl(apiUrl: string, bucket: string, name: string): string {
  return encodeURI(`${apiUrl}/storage/v1/object/public/${bucket}/${name}`);
}

/**
 * Everything held about the user, as one JSON document (decision 071). Counted against the export
 * limit in the same transaction that reads the owner's rows: a refused export reads nothing, a
 * failed one is not counted.
 */
export async function exportUserData(
  deps: ExportDeps,
  caller: { userId: string; scope: RequestScope },
  requestOrigin: string,
): Promise<UserDataExport> {
  const apiUrl = deps.apiUrl ?? requestOrigin;
  const { db } = deps;
  const { userId } = caller;
  let own: Record<string, unknown> | undefined;
  try {
    own = await db.withScope(caller.scope, async (tx) => {
      if (!(await sql.takeRateSlot(tx, EXPORT_RATE_ACTION, deps.exportsPerHour))) return undefined;
      return sql.readOwnRows(tx, userId, OWNED_TABLES, USER_FOLDER_BUCKET);
    });
  } catch (error) {
    throw FunctionErrors.exportFailed(error);
  }
  if (own === undefined) {
    const retryAfter = await sql.rateSlotFreeIn(db, EXPORT_RATE_ACTION, userId);
    throw FunctionErrors.exportRateLimited(deps.exportsPerHour, retryAfter);
  }

  let records: Record<string, unknown>;
  try {
    const visible = (own.files as FileEntry[]).map((file) => file.id);
    records = await db.transaction((tx) => sql.readAccountRecords(tx, userId, USER_FOLDER_BUCKET, visible));
  } catch (error) {
    throw FunctionErrors.exportFailed(error);
  }
  if (!records.account) throw FunctionErrors.accountNotFound();

  const publicBuckets = new Set(records.public_buckets as string[]);
  const files = [...(own.files as FileEntry[]), ...(records.hidden_files as FileEntry[])]
    .sort((a, b) => (a.bucket === b.bucket ? (a.name < b.name ? -1 : 1) : a.bucket < b.bucket ? -1 : 1))
    .map(({ id: _id, ...file }) => ({
      ...file,
      public_url: publicBuckets.has(file.bucket) ? publicUrl(apiUrl, file.bucket, file.name) : null,
    }));

  const { files: _files, ...ownSections } = own;
  const document = {
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: new Date().toISOString(),
    user_id: userId,
    account: records.account,
    ...ownSections,
    security_events: records.security_events,
    account_activity: records.account_activity,
    vote_signals: records.vote_signals,
    inactivity_warnings: records.inactivity_warnings,
    scammer_watch_alerts: records.scammer_watch_alerts,
    moderation_actions: records.moderation_actions,
    rate_limit_records: {
      attempts: records.rate_limit_attempts,
      penalties: records.rate_limit_penalties,
      write_quotas: records.write_quota_usage,
    },
    files,
  };
  return { fileName: `user_data_export_${userId}.json`, document };
}

/**
 * The export limit is a server setting (GDPR_EXPORT_LIMIT_PER_HOUR); the rate-limit procedure reads it
 * from its rules table.
 */
export function setExportLimit(db: Database, perHour: number): Promise<void> {
  return sql.setExportRule(db, EXPORT_RATE_ACTION, perHour);
}
