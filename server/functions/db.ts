import type { Queryable } from '../db/driver.ts';
import { quoteIdent, quoteQualified } from '../db/sql.ts';

/**
 * Every SQL statement of the server functions. Values are always bind parameters; the few identifiers
 * (our own table names below) go through quoteIdent. Statements that read "as the user" run inside
 * `db.withScope` (RLS decides); the others run as the connecting role and say so.
 */

async function one<T>(tx: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  const { rows } = await tx.query<T>(sql, params);
  return rows[0];
}

// ----------------------------------------------------------------------------------------------
// Callers
// ----------------------------------------------------------------------------------------------

/**
 * Whether the token's account exists and, when the token names a session, whether that session does
 * (GoTrue's requireAuthentication: signed out means signed out, even before the token expires).
 */
export async function findAccountAndSession(
  tx: Queryable,
  userId: string,
  sessionId: string | null,
): Promise<{ account: boolean; session: boolean }> {
  const row = await one<{ account: boolean; session: boolean }>(
    tx,
    `select exists (select 1 from auth.users u where u.id = $1::uuid) as account,
       $2::uuid is not null and exists (
         select 1 from auth.sessions s where s.id = $2::uuid and s.user_id = $1::uuid
           and (s.not_after is null or s.not_after > now())
       ) as session`,
    [userId, sessionId],
  );
  return row ?? { account: false, session: false };
}

// ----------------------------------------------------------------------------------------------
// Export rate limit (the product's own limiter, decision 034: shared by every server process)
// ----------------------------------------------------------------------------------------------

/**
 * The server's limit of exports per user and hour (GDPR_EXPORT_LIMIT_PER_HOUR) as the rate-limit rule
 * `global_rate_limit_check` applies: it takes no limits from its caller (decision 094).
 */
export async function setExportRule(tx: Queryable, action: string, maxPerHour: number): Promise<void> {
  await tx.query(
    `insert into private.rate_limit_rules (action_type, max_attempts, window_minutes, max_ip_attempts)
     values ($1, $2, 60, least($2 * 10, 1000000))
     on conflict (action_type) do update set max_attempts = excluded.max_attempts,
       window_minutes = excluded.window_minutes, max_ip_attempts = excluded.max_ip_attempts, updated_at = now()
     where (private.rate_limit_rules.max_attempts, private.rate_limit_rules.window_minutes)
       is distinct from (excluded.max_attempts, excluded.window_minutes)`,
    [action, maxPerHour],
  );
}

/** Writes the Pass or Gas settings where the database's vote triggers read them (decision 116). */
export async function setVoteSettings(
  tx: Queryable,
  settings: { minAccountAgeHours: number; ringDetection: boolean },
): Promise<void> {
  await tx.query(
    `update private.votes_settings
     set min_account_age = make_interval(hours => $1::integer), ring_detection = $2::boolean, updated_at = now()
     where id and (min_account_age, ring_detection) is distinct from (make_interval(hours => $1::integer), $2::boolean)`,
    [settings.minAccountAgeHours, settings.ringDetection],
  );
}

/** Pending votes whose accounts are now old enough start counting; old ring signals go (decision 116). */
export async function voteHousekeeping(tx: Queryable): Promise<number> {
  const row = await one<{ promoted: number }>(tx, 'select private.votes_housekeeping() as promoted', []);
  return row?.promoted ?? 0;
}

/** Broadcasts the tallies changed since the last run on the topic `product-tallies` (decision 156). */
export async function broadcastTallies(tx: Queryable): Promise<number> {
  const row = await one<{ sent: number }>(tx, 'select private.votes_broadcast_tallies() as sent', []);
  return row?.sent ?? 0;
}

/** Members whose cancelled subscription ends within 3 days are told, once per end date (issue 15). */
export async function remindExpiringSubscriptions(tx: Queryable): Promise<number> {
  const row = await one<{ told: number }>(tx, 'select private.remind_expiring_subscriptions() as told', []);
  return row?.told ?? 0;
}

/** Deletes webhook events received more than 90 days ago; returns how many. */
export async function pruneStripeEvents(tx: Queryable): Promise<number> {
  const row = await one<{ deleted: number }>(tx, 'select private.stripe_events_prune() as deleted', []);
  return row?.deleted ?? 0;
}

/** Counts one export for the scoped caller (user and client address) if under the limit. */
export async function takeRateSlot(tx: Queryable, action: string, maxPerHour: number): Promise<boolean> {
  const row = await one<{ allowed: boolean }>(
    tx,
    'select public.global_rate_limit_check($1, $2, 60) as allowed',
    [action, maxPerHour],
  );
  return row?.allowed === true;
}

/** Seconds until the user's oldest counted attempt leaves the hour window (connecting role). */
export async function rateSlotFreeIn(tx: Queryable, action: string, userId: string): Promise<number> {
  const row = await one<{ seconds: number | null }>(
    tx,
    `select ceil(extract(epoch from min(a.created_at) + interval '1 hour' - now()))::int as seconds
     from private.rate_limit_attempts a
     where a.action_type = $1 and a.user_id = $2::uuid and a.created_at > now() - interval '1 hour'`,
    [action, userId],
  );
  return Math.max(1, row?.seconds ?? 3600);
}

// ----------------------------------------------------------------------------------------------
// Export
// ----------------------------------------------------------------------------------------------

/** A user's files: objects they own in any bucket, and everything in their folder of the avatar bucket. */
const FILES_OF_USER = `(o.owner = $1::uuid or o.owner_id = ($1::uuid)::text
  or (o.bucket_id = $2 and (storage.foldername(o.name))[1] = ($1::uuid)::text))`;

const FILE_JSON = `json_build_object('id', o.id, 'bucket', o.bucket_id, 'name', o.name,
  'size', case when jsonb_typeof(o.metadata -> 'size') = 'number' then (o.metadata ->> 'size')::bigint end,
  'content_type', o.metadata ->> 'mimetype', 'created_at', o.created_at, 'updated_at', o.updated_at)`;

/** A product table the owner may read through RLS, with the column naming its owner. */
export interface OwnedTable {
  /** Key of the section in the export document. */
  section: string;
  table: string;
  owner: string;
  order: string;
  /** One row per user (the section is an object or null, not a list). */
  single?: boolean;
}

function section({ section, table, owner, order, single }: OwnedTable): string {
  const source = `${quoteQualified('public', table)} t where t.${quoteIdent(owner)} = $1::uuid`;
  const value = single
    ? `(select to_json(t) from ${source} limit 1)`
    : `coalesce((select json_agg(to_json(t) order by t.${quoteIdent(order)}) from ${source}), '[]'::json)`;
  return `'${section.replace(/[^a-z_]/g, '')}', ${value}`;
}

/**
 * Everything the owner may read about themselves through RLS, in one statement (one snapshot). Run
 * as the user: the explicit owner filter keeps an admin's export to their own rows (admins may read
 * everyone's), RLS keeps it to what the owner may see at all.
 */
export async function readOwnRows(
  tx: Queryable,
  userId: string,
  tables: readonly OwnedTable[],
  userFolderBucket: string,
): Promise<Record<string, unknown>> {
  const row = await one<{ document: Record<string, unknown> }>(
    tx,
    `select json_build_object(${tables.map(section).join(',\n')},
       'files', coalesce((select json_agg(${FILE_JSON} order by o.bucket_id, o.name)
                          from storage.objects o where ${FILES_OF_USER}), '[]'::json)
     ) as document`,
    [userId, userFolderBucket],
  );
  return row?.document ?? {};
}

/**
 * What is about the user but not readable by them through RLS (connecting role): the account with its
 * identities, factors, passkeys and sessions (auth.* is the auth service's), security events (admins read them),
 * their account activity in the audit log, rate-limit records (private), files of theirs the bucket
 * policies hide from them (not in `visibleFileIds`), and which buckets are public. Never a credential:
 * no password hash, token digest, TOTP secret or provider token is selected.
 */
export async function readAccountRecords(
  tx: Queryable,
  userId: string,
  userFolderBucket: string,
  visibleFileIds: string[],
): Promise<Record<string, unknown>> {
  const row = await one<{ document: Record<string, unknown> }>(
    tx,
    `select json_build_object(
       'account', (select json_build_object(
           'id', u.id, 'email', u.email, 'phone', u.phone, 'created_at', u.created_at,
           'updated_at', u.updated_at, 'last_sign_in_at', u.last_sign_in_at, 'confirmed_at', u.confirmed_at,
           'email_confirmed_at', u.email_confirmed_at, 'phone_confirmed_at', u.phone_confirmed_at,
           'invited_at', u.invited_at, 'pending_email_change', nullif(u.email_change, ''),
           'banned_until', u.banned_until, 'is_anonymous', u.is_anonymous,
           'user_metadata', u.raw_user_meta_data, 'app_metadata', u.raw_app_meta_data,
           'identities', coalesce((select json_agg(json_build_object(
               'provider', i.provider, 'email', i.email, 'identity_data', i.identity_data,
               'created_at', i.created_at, 'updated_at', i.updated_at, 'last_sign_in_at', i.last_sign_in_at)
             order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]'::json),
           'mfa_factors', coalesce((select json_agg(json_build_object(
               'factor_type', f.factor_type, 'friendly_name', f.friendly_name, 'status', f.status,
               'phone', f.phone, 'created_at', f.created_at, 'updated_at', f.updated_at,
               'last_challenged_at', f.last_challenged_at)
             order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id), '[]'::json),
           'passkeys', coalesce((select json_agg(json_build_object(
               'friendly_name', p.friendly_name, 'aaguid', p.aaguid, 'created_at', p.created_at,
               'last_used_at', p.last_used_at)
             order by p.created_at, p.id) from auth.webauthn_credentials p where p.user_id = u.id), '[]'::json),
           'sessions', coalesce((select json_agg(json_build_object(
               'created_at', s.created_at, 'updated_at', s.updated_at, 'refreshed_at', s.refreshed_at,
               'not_after', s.not_after, 'aal', s.aal, 'user_agent', s.user_agent, 'ip', host(s.ip))
             order by s.created_at, s.id) from auth.sessions s where s.user_id = u.id), '[]'::json))
         from auth.users u where u.id = $1::uuid),
       'security_events', coalesce((select json_agg(json_build_object(
           'id', e.id, 'type', e.type, 'category', e.category, 'action', e.action,
           'description', e.description, 'additional_data', e.additional_data, 'risk_level', e.risk_level,
           'ip', host(e.ip), 'created_at', e.created_at)
         order by e.created_at, e.id) from public.security_events e
         where e.user_id = $1::uuid or e.additional_data ->> 'user_id' = ($1::uuid)::text
            or lower(e.additional_data ->> 'user_email') = (select lower(u.email) from auth.users u where u.id = $1::uuid)),
         '[]'::json),
       'account_activity', coalesce((select json_agg(json_build_object(
           'action', a.payload ->> 'action', 'log_type', a.payload ->> 'log_type',
           'ip_address', nullif(a.ip_address, ''), 'created_at', a.created_at)
         order by a.created_at, a.id) from auth.audit_log_entries a
         where a.payload ->> 'actor_id' = ($1::uuid)::text), '[]'::json),
       'vote_signals', coalesce((select json_agg(json_build_object(
           'product_id', s.product_id, 'address_hash', s.address_hash,
           'account_created_at', s.account_created_at, 'voted_at', s.voted_at)
         order by s.voted_at, s.vote_id) from private.votes_signals s where s.user_id = $1::uuid), '[]'::json),
       'scammer_watch_alerts', coalesce((select json_agg(json_build_object(
           'report_id', a.report_id, 'alerted_at', a.alerted_at, 'withdrawal_told_at', a.withdrawal_told_at)
         order by a.alerted_at, a.report_id) from private.scammer_watch_alerts a where a.user_id = $1::uuid),
         '[]'::json),
       'inactivity_warnings', coalesce((select json_agg(json_build_object(
           'last_active_at', w.last_active_at, 'warned_at', w.warned_at))
         from private.inactivity_warnings w where w.user_id = $1::uuid), '[]'::json),
       'moderation_actions', coalesce((select json_agg(json_build_object(
           'id', m.id, 'kind', m.kind, 'product_id', m.product_id, 'comment_id', m.comment_id,
           'resolution', m.resolution, 'resolved_at', m.resolved_at)
         order by m.resolved_at, m.id) from public.moderation_items m where m.resolved_by = $1::uuid), '[]'::json),
       'rate_limit_attempts', coalesce((select json_agg(json_build_object(
           'action', r.action_type, 'ip', host(r.ip), 'created_at', r.created_at)
         order by r.created_at, r.id) from private.rate_limit_attempts r where r.user_id = $1::uuid), '[]'::json),
       'write_quota_usage', coalesce((select json_agg(json_build_object(
           'table', w.relation::regclass::text, 'minute_start', w.minute_start, 'minute_count', w.minute_count,
           'day_start', w.day_start, 'day_count', w.day_count)
         order by w.day_start, w.relation) from private.write_quota_usage w where w.user_id = $1::uuid), '[]'::json),
       'rate_limit_penalties', coalesce((select json_agg(json_build_object(
           'action', p.action_type, 'violation_count', p.violation_count,
           'last_violation_at', p.last_violation_at, 'blocked_until', p.blocked_until)
         order by p.last_violation_at) from private.rate_limit_penalties p where p.user_id = $1::uuid), '[]'::json),
       'hidden_files', coalesce((select json_agg(${FILE_JSON} order by o.bucket_id, o.name)
         from storage.objects o where ${FILES_OF_USER} and not (o.id = any($3::uuid[]))), '[]'::json),
       'public_buckets', coalesce((select json_agg(b.id order by b.id) from storage.buckets b where b.public), '[]'::json)
     ) as document`,
    [userId, userFolderBucket, visibleFileIds],
  );
  return row?.document ?? {};
}

// ----------------------------------------------------------------------------------------------
// Account deletion (connecting role: it removes what no API role may remove)
// ----------------------------------------------------------------------------------------------

export interface StoredBlob {
  objectId: string;
  version: string;
}

/** The user's objects and the blobs holding their bytes. */
export async function listUserBlobs(
  tx: Queryable,
  userId: string,
  userFolderBucket: string,
): Promise<StoredBlob[]> {
  const { rows } = await tx.query<StoredBlob>(
    `select o.id as "objectId", o.version from storage.objects o
     where ${FILES_OF_USER} and o.version is not null order by o.id`,
    [userId, userFolderBucket],
  );
  return rows;
}

/**
 * Locks the account row for the rest of the transaction (concurrent writers that reference it, and
 * storage writes checking it, wait for the outcome); false when it no longer exists.
 */
export async function lockAccount(
  tx: Queryable,
  userId: string,
): Promise<{ email: string | null; pendingEmail: string | null } | undefined> {
  return one<{ email: string | null; pendingEmail: string | null }>(
    tx,
    `select u.email, nullif(u.email_change, '') as "pendingEmail" from auth.users u
     where u.id = $1::uuid for update`,
    [userId],
  );
}

export interface DeletedRows {
  versions: string[];
  objects: number;
}

/**
 * Removes the account and everything that hangs off it: `auth.users` first (every product row, the
 * auth service's identities, sessions with their refresh tokens, factors and one-time tokens go by
 * ON DELETE CASCADE), then what refers to the user without a foreign key: their objects, stray refresh
 * tokens and PKCE flows, and anonymous security events about them.
 */
export async function deleteAccountRows(
  tx: Queryable,
  userId: string,
  emails: string[],
  userFolderBucket: string,
): Promise<DeletedRows> {
  await tx.query('delete from auth.users where id = $1::uuid', [userId]);
  const { rows } = await tx.query<{ version: string | null }>(
    `delete from storage.objects o where ${FILES_OF_USER} returning o.version`,
    [userId, userFolderBucket],
  );
  await tx.query('delete from auth.refresh_tokens where user_id = ($1::uuid)::text', [userId]);
  await tx.query('delete from auth.flow_state where user_id = $1::uuid', [userId]);
  await tx.query(
    `delete from public.security_events e
     where e.additional_data ->> 'user_id' = ($1::uuid)::text
        or lower(e.additional_data ->> 'user_email') = any($2::text[])`,
    [userId, emails.map((email) => email.toLowerCase())],
  );
  // Mail the database queued for them, sent or not: it holds their address and what it said.
  await tx.query('delete from private.mail_queue q where lower(q.to_email) = any($1::text[])', [
    emails.map((email) => email.toLowerCase()),
  ]);
  return {
    versions: rows.flatMap((row) => (row.version ? [row.version] : [])),
    objects: rows.length,
  };
}

/**
 * Realtime's change log forgets the user (decision 097). The capture trigger runs at commit, so the
 * deletes that just cascaded are captured first (`set constraints all immediate`); then changes whose
 * row carries the user's id anywhere are dropped, except deletions, which keep only the primary key
 * (what a subscriber needs to remove the row from its view). Their live subscriptions (which hold the
 * token's claims) go too: nothing more reaches the deleted account.
 */
export async function forgetRealtimeChanges(tx: Queryable, userId: string): Promise<void> {
  await tx.query('set constraints all immediate');
  const mentions = `exists (select 1 from jsonb_each_text(coalesce(c.record, '{}'::jsonb) || coalesce(c.old_record, '{}'::jsonb)) e
                           where e.value = ($1::uuid)::text)`;
  await tx.query(`delete from realtime.changes c where c.action <> 'DELETE' and ${mentions}`, [userId]);
  await tx.query(
    `update realtime.changes c
     set record = null,
         old_record = (select coalesce(jsonb_object_agg(a.attname, c.old_record -> a.attname::text), '{}'::jsonb)
                       from pg_catalog.pg_index i
                       join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                       where i.indrelid = c.entity and i.indisprimary)
     where c.action = 'DELETE' and ${mentions}`,
    [userId],
  );
  await tx.query(`delete from realtime.subscriptions s where s.claims ->> 'sub' = ($1::uuid)::text`, [
    userId,
  ]);
}

/**
 * What names the person besides their id, read before the account goes: addresses (also a pending new
 * one and the profile's copy), phone, username and display name (profile and sign-up metadata), and
 * the payment provider's customer and subscription ids (webhook events name them).
 */
export async function namesOfAccount(tx: Queryable, userId: string): Promise<string[]> {
  const row = await one<{ names: (string | null)[] }>(
    tx,
    `select array[u.email, nullif(u.email_change, ''), u.phone, p.email, p.username, p.full_name,
       u.raw_user_meta_data ->> 'full_name', u.raw_user_meta_data ->> 'name',
       u.raw_user_meta_data ->> 'user_name', u.raw_user_meta_data ->> 'preferred_username',
       s.stripe_customer_id, s.stripe_subscription_id] as names
     from auth.users u
     left join public.profiles p on p.user_id = u.id
     left join public.scammer_subscriptions s on s.user_id = u.id
     where u.id = $1::uuid`,
    [userId],
  );
  return [...new Set((row?.names ?? []).filter((name): name is string => Boolean(name?.trim())))];
}

/**
 * The rest of the person, once their account is deleted in this transaction (decision 185): audit
 * entries about them are rewritten under a pseudonym without their personal fields, broadcasts for or
 * about them go (`private.erase_member`, supabase/definitions/erasure.sql). Returns how many audit
 * entries were rewritten.
 */
export async function eraseMemberTraces(tx: Queryable, userId: string, names: string[]): Promise<number> {
  const row = await one<{ rewritten: number }>(
    tx,
    'select private.erase_member($1::uuid, $2::text[]) as rewritten',
    [userId, names],
  );
  return row?.rewritten ?? 0;
}

/**
 * GoTrue's audit entry shape, naming nobody: no user id, address or email (decision 097). The log can
 * tell that an account was erased, and when, but not whose.
 */
export async function insertDeletionAudit(tx: Queryable, traits: Record<string, unknown>): Promise<void> {
  await tx.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), $1::json, now(), '')`,
    [
      JSON.stringify({
        actor_id: '00000000-0000-0000-0000-000000000000',
        actor_username: '',
        actor_via_sso: false,
        log_type: 'team',
        action: 'user_deleted',
        traits,
      }),
    ],
  );
}

// ----------------------------------------------------------------------------------------------
// Blob trash (storage.blob_trash, server/storage/migrations/0002_blob_trash.sql)
// ----------------------------------------------------------------------------------------------

export interface TrashEntry {
  aside_key: string;
  original_key: string;
}

export async function recordPendingBlobs(
  tx: Queryable,
  operationId: string,
  entries: TrashEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `insert into storage.blob_trash (aside_key, original_key, operation_id, state)
     select a, o, $3::uuid, 'pending' from unnest($1::text[], $2::text[]) as e(a, o)`,
    [entries.map((entry) => entry.aside_key), entries.map((entry) => entry.original_key), operationId],
  );
}

/** Marks the operation's set-aside blobs for purging; answers how many were still pending. */
export async function markForPurge(tx: Queryable, operationId: string): Promise<number> {
  const { rowCount } = await tx.query(
    `update storage.blob_trash set state = 'purge' where operation_id = $1::uuid and state = 'pending'`,
    [operationId],
  );
  return rowCount;
}

/** Blobs to remove that were never set aside (they appeared while the operation ran). */
export async function recordPurgeBlobs(tx: Queryable, operationId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `insert into storage.blob_trash (aside_key, original_key, operation_id, state)
     select k, k, $2::uuid, 'purge' from unnest($1::text[]) as k on conflict (aside_key) do nothing`,
    [keys, operationId],
  );
}

export async function trashOfOperation(
  tx: Queryable,
  operationId: string,
): Promise<(TrashEntry & { state: string })[]> {
  const { rows } = await tx.query<TrashEntry & { state: string }>(
    'select aside_key, original_key, state from storage.blob_trash where operation_id = $1::uuid',
    [operationId],
  );
  return rows;
}

/** Operations with entries to finish: all purges, and pending entries older than the lease. */
export async function staleTrashOperations(tx: Queryable, leaseSeconds: number): Promise<string[]> {
  const { rows } = await tx.query<{ operation_id: string }>(
    `select distinct operation_id from storage.blob_trash
     where state = 'purge' or created_at < now() - make_interval(secs => $1)
     limit 1000`,
    [leaseSeconds],
  );
  return rows.map((row) => row.operation_id);
}

/** Which of these blob keys a stored object still uses. */
export async function referencedVersions(tx: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await tx.query<{ version: string }>(
    'select distinct version from storage.objects where version = any($1::text[])',
    [keys],
  );
  return new Set(rows.map((row) => row.version));
}

export async function forgetTrash(tx: Queryable, asideKeys: string[]): Promise<void> {
  if (asideKeys.length === 0) return;
  await tx.query('delete from storage.blob_trash where aside_key = any($1::text[])', [asideKeys]);
}

// ----------------------------------------------------------------------------------------------
// Product mail (private.mail_queue, decision 101) — as the connecting role: the queue is private
// ----------------------------------------------------------------------------------------------

export interface QueuedMail {
  id: string;
  to_email: string;
  type: string;
  subject: string;
  body: string;
  link: string | null;
}

/**
 * Claims up to `limit` unsent mails: never-claimed ones, or ones whose claim is older than the lease
 * (a server that stopped while sending). Several servers never claim the same row at once.
 */
export async function claimQueuedMail(
  db: Queryable,
  limit: number,
  leaseSeconds: number,
): Promise<QueuedMail[]> {
  const { rows } = await db.query<QueuedMail>(
    `update private.mail_queue q set claimed_at = now(), attempts = q.attempts + 1
     where q.id in (
       select c.id from private.mail_queue c
       where c.sent_at is null and c.attempts < 10
         and (c.claimed_at is null or c.claimed_at < now() - make_interval(secs => $2))
       order by c.id
       limit $1
       for update skip locked
     )
     returning q.id::text as id, q.to_email, q.type, q.subject, q.body, q.link`,
    [limit, leaseSeconds],
  );
  return rows;
}

export async function markMailSent(db: Queryable, id: string): Promise<void> {
  await db.query('update private.mail_queue set sent_at = now(), last_error = null where id = $1::bigint', [
    id,
  ]);
}

/** A failed delivery is tried again after the lease (up to 10 attempts). */
export async function markMailFailed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query('update private.mail_queue set last_error = left($2, 500) where id = $1::bigint', [
    id,
    error,
  ]);
}

// ----------------------------------------------------------------------------------------------
// News (news-feeds.ts). As the server's own role: private.news_* are not callable by API roles.
// ----------------------------------------------------------------------------------------------

export interface NewsSourceRow {
  id: string;
  name: string;
  feed_url: string;
  enabled: boolean;
  etag: string | null;
  last_modified: string | null;
}

const NEWS_SOURCE_COLUMNS = 'id, name, feed_url, enabled, etag, last_modified';

/** One source by id, or every source. */
export async function listNewsSources(tx: Queryable, sourceId: string | null): Promise<NewsSourceRow[]> {
  const { rows } = await tx.query<NewsSourceRow>(
    `select ${NEWS_SOURCE_COLUMNS} from public.news_sources where $1::uuid is null or id = $1::uuid order by name`,
    [sourceId],
  );
  return rows;
}

/**
 * Claims the enabled sources no process attempted in the last `seconds`: marks them attempted now and
 * returns them. Rows another process is claiming at the same moment are skipped, not waited for.
 */
export async function claimDueSources(tx: Queryable, seconds: number): Promise<NewsSourceRow[]> {
  const { rows } = await tx.query<NewsSourceRow>(
    `update public.news_sources as s set last_attempt_at = now()
     where s.id in (
       select id from public.news_sources
       where enabled and (last_attempt_at is null or last_attempt_at < now() - make_interval(secs => $1))
       for update skip locked
     )
     returning ${NEWS_SOURCE_COLUMNS.split(', ')
       .map((column) => `s.${column}`)
       .join(', ')}`,
    [seconds],
  );
  return rows;
}

/** Adds one fetch's items (de-duplicated and grouped by the database); the number of new articles. */
export async function ingestNewsItems(
  tx: Queryable,
  sourceId: string,
  items: unknown[],
  etag: string | null,
  lastModified: string | null,
): Promise<number> {
  const row = await one<{ added: number }>(
    tx,
    `select private.news_ingest($1::uuid, $2::jsonb, $3, $4) as added`,
    [sourceId, JSON.stringify(items), etag, lastModified],
  );
  return Number(row?.added ?? 0);
}

/** Records a fetch that added nothing: 'not_modified' or 'error' with its reason. */
export async function recordNewsFetch(
  tx: Queryable,
  sourceId: string,
  status: 'not_modified' | 'error',
  error: string | null,
): Promise<void> {
  await tx.query(`select private.news_record_fetch($1::uuid, $2, $3)`, [sourceId, status, error]);
}

/** Whether the account holds the admin role (the news functions are for admins). */
export async function isAdmin(tx: Queryable, userId: string): Promise<boolean> {
  const row = await one<{ admin: boolean }>(
    tx,
    `select exists (select 1 from public.user_roles where user_id = $1::uuid and role = 'admin') as admin`,
    [userId],
  );
  return row?.admin ?? false;
}

/** Warns members whose chosen inactivity period ends within 14 days (decision 192); returns how many. */
export async function warnInactiveMembers(tx: Queryable): Promise<number> {
  const row = await one<{ warned: number }>(tx, 'select private.inactivity_warn() as warned', []);
  return row?.warned ?? 0;
}

/** Members warned 14 days ago or more, still inactive past their period: to be erased now. */
export async function inactiveAccountsDue(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>('select private.inactivity_due() as id');
  return rows.map((row) => row.id);
}

/** Deletes security events older than 12 months (decision 193); returns how many. */
export async function pruneSecurityEvents(tx: Queryable): Promise<number> {
  const row = await one<{ removed: number }>(tx, 'select private.security_logs_prune() as removed', []);
  return row?.removed ?? 0;
}
