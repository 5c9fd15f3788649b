import type { Queryable } from '../../db/driver.ts';
import { one, quoteIdent, quoteQualified } from '../../db/sql.ts';

/**
 * Every SQL statement of the GDPR area: the export, the account deletion, inactivity and the security
 * logs' retention. Values are always bind parameters; the few identifiers (our own table names) go
 * through quoteIdent. Statements that read "as the user" run inside `db.withScope` (RLS decides); the
 * others run as the connecting role and say so.
 */

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
