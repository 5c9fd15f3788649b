/**
 * Helpers of the server functions' integration tests: a member with a row in every table that holds
 * user data (product tables, the auth service's tables, files with real blobs), and views of what the
 * database and the blob backend hold about a user, read directly (as the superuser), never through the
 * API under test.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '#server/db/driver.ts';
import { tokenClient } from '#tests/support/clients.ts';
import { blob, PNG } from '#tests/support/storage.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import { userToken } from '#tests/support/tokens.ts';
import type { StorageTestServer } from './storage-support.ts';

/**
 * An account row written straight into auth.users with a token minted for it (no session): the seed
 * below writes the auth tables row by row, so that an export or a deletion has exactly these rows to
 * find. Tests that only need a signed-in member use tests/support/users.ts (the admin API).
 */
async function insertAccount(server: TestServer, options: { admin?: boolean }) {
  const id = randomUUID();
  const email = `${id.slice(0, 8)}@storage.example`;
  await server.db.query(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data) values ($1, $2, 'authenticated', 'authenticated', '{}')`,
    [id, email],
  );
  if (options.admin) {
    await server.db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [id]);
  }
  const token = await userToken(server.jwtSecret, id, { claims: { email } });
  return { id, email, token, client: tokenClient(server, token) };
}

export interface Member {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
  /** Storage versions (blob keys) of the member's files. */
  blobs: string[];
  /** Values that must never appear in an export: credentials of every kind. */
  secrets: string[];
  sessionId: string;
}

export const tomorrow = () => new Date(Date.now() + 86400_000).toISOString().slice(0, 10);

/** A member with data everywhere: the tables of every section of the export, and two files. */
export async function seedMember(t: StorageTestServer, options: { admin?: boolean } = {}): Promise<Member> {
  const user = await insertAccount(t.server, options);
  const db = t.server.db;
  const tag = user.id.slice(0, 8);
  const secrets = [
    `$argon2id$v=19$m=65536,t=3,p=4$${tag}secret`,
    `refresh-digest-${tag}`,
    `TOTPSECRET${tag}`,
  ];
  const sessionId = randomUUID();
  await db.query(
    `update auth.users set encrypted_password = $2, phone = $3, raw_user_meta_data = $4 where id = $1`,
    [
      user.id,
      secrets[0],
      `+1555${Math.floor(Math.random() * 1e7)}`,
      JSON.stringify({ full_name: `Member ${tag}` }),
    ],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1, $2, $3, 'email', now(), now())`,
    [user.id, user.id, JSON.stringify({ sub: user.id, email: user.email })],
  );
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', 'test-agent', '203.0.113.9')`,
    [sessionId, user.id],
  );
  await db.query(
    `insert into auth.refresh_tokens (token, user_id, revoked, created_at, updated_at, session_id)
     values ($1, $2, false, now(), now(), $3)`,
    [secrets[1], user.id, sessionId],
  );
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values (gen_random_uuid(), $1, 'phone app', 'totp', 'verified', now(), now(), $2)`,
    [user.id, secrets[2]],
  );
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values (gen_random_uuid(), $1, 'recovery_token', $2, $3)`,
    [user.id, `ott-digest-${tag}`, user.email],
  );
  secrets.push(`ott-digest-${tag}`);
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       provider_access_token, created_at, authentication_method)
     values (gen_random_uuid(), $1, $2, 's256', 'challenge', 'email', $3, now(), 'password')`,
    [user.id, `auth-code-${tag}`, `provider-token-${tag}`],
  );
  secrets.push(`auth-code-${tag}`, `provider-token-${tag}`);
  await db.query(
    `insert into auth.audit_log_entries (id, payload, created_at, ip_address)
     values (gen_random_uuid(), $1, now(), '203.0.113.9')`,
    [JSON.stringify({ actor_id: user.id, actor_username: user.email, action: 'login', log_type: 'account' })],
  );

  await db.query(`update public.profiles set bio = $2 where user_id = $1`, [user.id, `Bio of ${tag}`]);
  await db.query(`insert into public.privacy_settings (user_id, show_email) values ($1, true)`, [user.id]);
  await db.query(
    `insert into public.scammer_subscriptions (user_id, status, expires_at) values ($1, 'active', now() + interval '1 month')`,
    [user.id],
  );
  await db.query(
    `insert into public.products (id, name, category) values ($1, $1, 'Flower') on conflict do nothing`,
    [`product-${tag}`],
  );
  await db.query(`insert into public.product_votes (user_id, product_id, vote_type) values ($1, $2, 'gas')`, [
    user.id,
    `product-${tag}`,
  ]);
  await db.query(`insert into public.product_comments (user_id, product_id, content) values ($1, $2, $3)`, [
    user.id,
    `product-${tag}`,
    `Comment by ${tag}`,
  ]);
  // Pass or Gas: a like and a report of their own comment, a ring signal, a moderation decision.
  await db.query(
    `with c as (select id, product_id from public.product_comments where user_id = $1 limit 1),
     l as (insert into public.product_comment_likes (comment_id, user_id) select id, $1 from c),
     r as (insert into public.product_comment_reports (comment_id, reporter_id, reason) select id, $1, 'test' from c),
     s as (insert into private.votes_signals (vote_id, user_id, product_id, address_hash, account_created_at)
           select v.id, $1, v.product_id, repeat('a', 64), now() from public.product_votes v where v.user_id = $1)
     insert into public.moderation_items (kind, product_id, status, resolution, resolved_at, resolved_by)
     select 'held_votes', product_id, 'resolved', 'released', now(), $1 from c`,
    [user.id],
  );
  // The inactivity job's warning (decision 192), as it keeps one for a member it warned.
  await db.query(
    `insert into private.inactivity_warnings (user_id, last_active_at) values ($1, now() - interval '1 year')`,
    [user.id],
  );
  // Brand directory: a claim to represent a brand.
  await db.query(
    `with b as (insert into public.brands (name, slug) values ($2, $3) returning id)
     insert into public.brand_claims (brand_id, user_id, role_title) select id, $1, 'Owner' from b`,
    [user.id, `Brand ${tag}`, `brand-${tag.toLowerCase()}`],
  );
  await db.query(
    `insert into public.saved_articles (user_id, article_title, article_url) values ($1, $2, $3)`,
    [user.id, `Article ${tag}`, `https://news.example/${tag}`],
  );
  await db.query(`insert into public.notifications (user_id, title, message) values ($1, $2, 'hello')`, [
    user.id,
    `Notice ${tag}`,
  ]);
  await db.query(
    `insert into public.scammer_reports (reporter_user_id, scammer_name, scammer_description, incident_details)
     values ($1, $2, 'A description of the scam', 'Incident details that are long enough')`,
    [user.id, `Scammer ${tag}`],
  );
  // A reply the member sent about a report naming them (decision 126): the seed's own report will do.
  await db.query(
    `insert into public.scammer_report_replies (report_id, user_id, kind, relation, body)
     select r.id, $1, 'reply', 'person', 'My side of the story, for the export test.'
     from public.scammer_reports r where r.reporter_user_id = $1 and r.scammer_name = $2`,
    [user.id, `Scammer ${tag}`],
  );
  await db.query(`insert into public.scammer_watches (user_id, kind, value) values ($1, 'name', $2)`, [
    user.id,
    `Watched ${tag}`,
  ]);
  // The alert the watch gave (decision 203), as the watch trigger records one per report.
  await db.query(
    `insert into private.scammer_watch_alerts (report_id, user_id)
     select r.id, $1 from public.scammer_reports r where r.reporter_user_id = $1 and r.scammer_name = $2`,
    [user.id, `Scammer ${tag}`],
  );
  await db.query(
    `insert into public.bookings (user_id, full_name, email, product_name, product_category, booking_date, booking_time)
     values ($1, $2, $3, 'Product', 'Flower', $4, '10:00')`,
    [user.id, `Booker ${tag}`, user.email, tomorrow()],
  );
  await db.query(
    `insert into public.security_events (type, action, user_id, additional_data) values ('auth', 'signin', $1, $2)`,
    [user.id, JSON.stringify({ user_id: user.id, user_email: user.email })],
  );
  await db.query(
    `insert into public.security_events (type, action, additional_data) values ('auth', 'failed_signin', $1)`,
    [JSON.stringify({ user_email: user.email })],
  );
  await db.query(
    `insert into private.rate_limit_attempts (action_type, user_id) values ('auth_signin', $1)`,
    [user.id],
  );
  await db.query(
    `insert into private.rate_limit_penalties (action_type, subject, user_id, violation_count, last_violation_at, blocked_until)
     values ('auth_signin', $2, $1, 1, now(), now())`,
    [user.id, `user:${user.id}`],
  );
  if (options.admin) {
    await db.query(
      `insert into public.admin_posts (title, content, author_id) values ($1, 'Post body', $2)`,
      [`Post ${tag}`, user.id],
    );
  } else {
    // Admins write notifications; members get the admin-posts section empty.
  }

  for (const name of [`${user.id}/avatar-1.png`, `${user.id}/avatar-2.png`]) {
    const { error } = await user.client.storage.from('user-uploads').upload(name, blob(PNG, 'image/png'));
    if (error) throw error;
  }
  if (options.admin) {
    const { error } = await user.client.storage
      .from('community-review-media')
      .upload(`admin-posts/${tag}.png`, blob(PNG, 'image/png'));
    if (error) throw error;
  }
  const { rows } = await db.query<{ version: string }>(
    `select version from storage.objects where owner = $1 order by name`,
    [user.id],
  );
  return { ...user, blobs: rows.map((row) => row.version), secrets, sessionId };
}

/** Every table outside `auth` with a foreign key to auth.users, and the referencing column. */
export async function userTables(db: Database): Promise<{ table: string; column: string }[]> {
  const { rows } = await db.query<{ table: string; column: string }>(
    `select c.conrelid::regclass::text as table, a.attname as column
     from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.contype = 'f' and c.confrelid = 'auth.users'::regclass
       and c.conrelid::regclass::text not like 'auth.%'
     order by 1`,
  );
  return rows;
}

/** How many rows about the user each table holds (product, auth, storage, audit, blob journal). */
export async function footprint(
  db: Database,
  userId: string,
  email: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = async (name: string, sql: string, params: unknown[]) => {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params);
    counts[name] = rows[0]?.n ?? 0;
  };
  for (const { table, column } of await userTables(db)) {
    await count(table, `${table} where "${column}" = $1`, [userId]);
  }
  await count('auth.users', 'auth.users where id = $1', [userId]);
  for (const table of ['identities', 'sessions', 'mfa_factors', 'one_time_tokens', 'flow_state']) {
    await count(`auth.${table}`, `auth.${table} where user_id = $1`, [userId]);
  }
  await count('auth.refresh_tokens', 'auth.refresh_tokens where user_id = $1::text', [userId]);
  await count('storage.objects', 'storage.objects where owner = $1 or name like $2', [userId, `${userId}/%`]);
  await count('security_events about them', `public.security_events where additional_data::text like $1`, [
    `%${email}%`,
  ]);
  await count('audit entries naming them', 'auth.audit_log_entries where payload::text like $1', [
    `%${email}%`,
  ]);
  return counts;
}

export async function trashRows(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from storage.blob_trash');
  return rows[0]?.n ?? 0;
}
