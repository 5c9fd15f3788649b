// @databases: both — erasure cascades through SQL and must leave nothing on either database.
/**
 * DELETE /functions/v1/gdpr-data-deletion against the real server, database and blob backends (disk
 * and S3): everything of the caller goes — checked in the database and in the backend directly —
 * nobody else's does, and a deletion that fails halfway (real faults: a trigger that raises, a blob
 * that cannot be read, a directory that cannot be changed) leaves everything as it was.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '#server/auth/passwords.ts';
import { openBackend } from '#server/storage/backends/index.ts';
import { readOutbox, waitForMail } from '#tests/support/auth.ts';
import { adminClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, PNG } from '#tests/support/storage.ts';
import { footprint, type Member, seedMember, trashRows } from './functions-support.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

const PASSWORD = 'correct horse battery staple';

function deletion(t: StorageTestServer, token: string, body: unknown = { confirm_deletion: true }) {
  return fetch(`${t.url}/functions/v1/gdpr-data-deletion`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function signIn(t: StorageTestServer, email: string) {
  return fetch(`${t.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: t.server.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
}

async function memberWithPassword(t: StorageTestServer, options: { admin?: boolean } = {}): Promise<Member> {
  const member = await seedMember(t, options);
  await t.server.db.query(
    'update auth.users set encrypted_password = $2, email_confirmed_at = now() where id = $1',
    [member.id, await hashPassword(PASSWORD)],
  );
  return member;
}

/**
 * A blob's bytes, read from the backend itself (not through the API: "restored" means the same bytes
 * under the same key in the store).
 */
async function bytesOf(t: StorageTestServer, key: string): Promise<Buffer> {
  const backend = await openBackend(t.server.server.ctx.config, () => {});
  try {
    return Buffer.from(await buffer(await backend.read(key)));
  } finally {
    await backend.close();
  }
}

/** Everything about a member, and the bytes: what "left in place" and "all gone" are checked against. */
async function snapshot(t: StorageTestServer, member: Member) {
  return { rows: await footprint(t.server.db, member.id, member.email), blobs: await t.blobs() };
}

describe.each(BACKENDS)('account deletion on the %s backend', (backend) => {
  let t: StorageTestServer;
  let member: Member;
  let other: Member;

  beforeAll(async () => {
    t = await startStorageServer(backend, { RATE_LIMIT_SIGN_IN_SIGN_UPS: '10000' });
    member = await memberWithPassword(t, { admin: true });
    other = await memberWithPassword(t);
  });
  afterAll(() => t?.close());

  it('leaves everything in place when the transaction fails halfway (a trigger raises)', async () => {
    const before = await snapshot(t, member);
    await t.server.db.exec(`
      create function public.refuse_delete() returns trigger language plpgsql as $$
      begin raise exception 'deletion refused by test trigger'; end $$;
      create trigger refuse_delete before delete on public.product_comments
        for each row execute function public.refuse_delete();`);
    try {
      const response = await deletion(t, member.token);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: 'deletion_failed',
        message: expect.stringContaining('nothing was removed'),
      });
    } finally {
      await t.server.db.exec(
        'drop trigger refuse_delete on public.product_comments; drop function public.refuse_delete();',
      );
    }
    expect(await snapshot(t, member)).toEqual(before);
    expect(await trashRows(t.server.db)).toBe(0);
    for (const version of member.blobs) expect(before.blobs).toContain(version);
    for (const version of member.blobs) expect(await bytesOf(t, version)).toEqual(PNG);
    expect((await signIn(t, member.email)).status).toBe(200);
  });

  it('deletes the account, every row and every file, and nothing of anyone else', async () => {
    const mine = await snapshot(t, member);
    expect(Object.values(mine.rows).filter((count) => count > 0).length).toBeGreaterThan(20);
    const theirs = await snapshot(t, other);
    const response = await deletion(t, member.token, { confirm_deletion: true, user_id: other.id });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      message: expect.stringContaining('Your account and all associated data have been permanently deleted.'),
    });

    const after = await snapshot(t, member);
    expect(Object.entries(after.rows).filter(([, count]) => count > 0)).toEqual([]);
    expect(after.blobs.filter((key) => member.blobs.includes(key))).toEqual([]);
    // No copies left over: exactly the member's blobs are gone.
    expect(after.blobs).toEqual(mine.blobs.filter((key) => !member.blobs.includes(key)));
    expect(await trashRows(t.server.db)).toBe(0);

    expect((await snapshot(t, other)).rows).toEqual(theirs.rows);
    for (const version of other.blobs) expect(after.blobs).toContain(version);

    const { rows: audit } = await t.server.db.query<{ payload: Record<string, unknown>; ip_address: string }>(
      `select payload, ip_address from auth.audit_log_entries where payload ->> 'action' = 'user_deleted'`,
    );
    // The erasure is on record, naming nobody (decision 097).
    expect(audit).toEqual([
      {
        payload: {
          actor_id: '00000000-0000-0000-0000-000000000000',
          actor_username: '',
          actor_via_sso: false,
          log_type: 'team',
          action: 'user_deleted',
          traits: { via: 'gdpr-data-deletion', objects_removed: 3 },
        },
        ip_address: '',
      },
    ]);
  });

  it('leaves the old access token good for nothing that needs the account', async () => {
    expect(await (await signIn(t, member.email)).json()).toMatchObject({ error_code: 'invalid_credentials' });
    const user = await fetch(`${t.url}/auth/v1/user`, {
      headers: { apikey: t.server.anonKey, Authorization: `Bearer ${member.token}` },
    });
    expect(user.status).toBe(403);
    expect((await deletion(t, member.token)).status).toBe(401);
    const exported = await fetch(`${t.url}/functions/v1/gdpr-data-export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(exported.status).toBe(401);
    const upload = await member.client.storage
      .from('user-uploads')
      .upload(`${member.id}/avatar-3.png`, blob(PNG, 'image/png'));
    expect(upload.error).not.toBeNull();
    const vote = await member.client.from('product_votes').insert({ product_id: 'p1', vote_type: 'gas' });
    expect(vote.error).not.toBeNull();
    const { rows } = await t.server.db.query('select 1 from storage.objects where name like $1', [
      `${member.id}/%`,
    ]);
    expect(rows).toEqual([]);
    // The other member still signs in and reads their files.
    expect((await signIn(t, other.email)).status).toBe(200);
    const { data: info, error } = await other.client.storage.from('user-uploads').list(other.id);
    expect(error).toBeNull();
    expect(info?.map((file) => file.name)).toEqual(['avatar-1.png', 'avatar-2.png']);
    for (const version of other.blobs) expect(await bytesOf(t, version)).toEqual(PNG);
  });
});

describe('deletion leaves nothing identifying (decision 097)', () => {
  let t: StorageTestServer;
  let member: Member;
  beforeAll(async () => {
    t = await startStorageServer('file', { RATE_LIMIT_SIGN_IN_SIGN_UPS: '10000' });
    member = await memberWithPassword(t);
  });
  afterAll(() => t?.close());

  const db = () => t.server.db;
  const count = async (sql: string, params: unknown[]) =>
    (await db().query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0]?.n;
  const mentions = (table: string, column: string) => `${table} where ${column}::text like '%' || $1 || '%'`;

  it('removes the audit trail, the mails in the outbox and the realtime changes of the person', async () => {
    // Traces a member leaves: sign-ins (audit log with their address), a reset mail with a link in the
    // outbox, a notification just sent to them (captured for realtime).
    expect((await signIn(t, member.email)).status).toBe(200);
    const recover = await fetch(`${t.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: t.server.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: member.email }),
    });
    expect(recover.status).toBe(200);
    const mail = await waitForMail(t.server.dataDir, (m) => m.to === member.email);
    expect(mail.action_url).toContain('/auth/v1/verify?token=');
    await adminClient(t.server)
      .from('notifications')
      .insert({ user_id: member.id, title: 'Your report was published', message: 'Thank you' });
    expect(await count(mentions('auth.audit_log_entries', 'payload'), [member.id])).toBeGreaterThan(1);
    expect(await count(`auth.audit_log_entries where ip_address <> ''`, [])).toBeGreaterThan(0);
    expect(await count(mentions('realtime.changes', 'record'), [member.id])).toBeGreaterThan(0);
    // A mail the database queued for them (sent by the product-mail job, or not yet).
    await db().query(
      `select private.queue_mail($1, 'booking_status', 'Your booking', 'It was confirmed.', '/booking')`,
      [member.email],
    );
    expect(await count('private.mail_queue where lower(to_email) = lower($1)', [member.email])).toBe(1);
    // Their free trial ran out before they left.
    await db().query(
      `update public.profiles set trial_ends_at = now() - interval '1 hour' where user_id = $1`,
      [member.id],
    );

    expect((await deletion(t, member.token)).status).toBe(200);

    // Nobody else acted on this server: no client address is left in the audit log at all.
    expect(await count(`auth.audit_log_entries where ip_address <> ''`, [])).toBe(0);
    for (const value of [member.id, member.email]) {
      expect(await count(mentions('auth.audit_log_entries', 'payload'), [value])).toBe(0);
      expect(await count(mentions('realtime.changes', 'coalesce(record, old_record)'), [value])).toBe(0);
      expect(await count(mentions('realtime.subscriptions', 'claims'), [value])).toBe(0);
    }
    expect(await count(`realtime.changes where record::text like '%published%'`, [])).toBe(0);
    expect(await count('private.mail_queue where lower(to_email) = lower($1)', [member.email])).toBe(0);
    expect((await readOutbox(t.server.dataDir)).filter((m) => m.to === member.email)).toEqual([]);
    const files = await readdir(join(t.server.dataDir, 'mail'));
    for (const file of files) {
      expect(await readFile(join(t.server.dataDir, 'mail', file), 'utf8')).not.toContain(member.email);
    }
    // Rate-limit and throttle rows hold no address in the clear, and none of theirs is left.
    expect(await count(`auth.rate_limits where key like '%@%'`, [])).toBe(0);
    expect(await count(`auth.rate_limits where key like 'mail:recovery:%' or key like 'mail:to:%'`, [])).toBe(
      0,
    );
  });

  it('answers the deleted account’s unexpired token with 401/403 in every service’s format', async () => {
    const bearer = { apikey: t.server.anonKey, Authorization: `Bearer ${member.token}` };
    const read = await fetch(`${t.url}/rest/v1/profiles?select=*`, { headers: bearer });
    expect(read.status).toBe(401);
    expect(await read.json()).toEqual({
      code: 'PGRST303',
      message: 'JWT claims validation failed',
      details: 'The account of this token no longer exists',
      hint: null,
    });
    const write = await fetch(`${t.url}/rest/v1/product_votes`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ product_id: 'p1', vote_type: 'gas' }),
    });
    expect(write.status).toBe(401);
    expect(JSON.stringify(await write.json())).not.toMatch(/private|rate_limit|foreign key/);
    const rpc = await fetch(`${t.url}/rest/v1/rpc/global_rate_limit_check`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action_type_param: 'scammer_report' }),
    });
    expect(rpc.status).toBe(401);
    const upload = await fetch(`${t.url}/storage/v1/object/user-uploads/${member.id}/avatar-9.png`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(upload.status).toBe(403);
    expect(await upload.json()).toEqual({
      statusCode: '403',
      error: 'Unauthorized',
      message: 'The account of this token no longer exists',
    });
    const listed = await fetch(`${t.url}/storage/v1/object/list/user-uploads`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefix: member.id }),
    });
    expect(listed.status).toBe(403);
    const user = await fetch(`${t.url}/auth/v1/user`, { headers: bearer });
    expect(user.status).toBe(403);
    const exported = await fetch(`${t.url}/functions/v1/gdpr-data-export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(exported.status).toBe(401);
  });

  it('gives an account re-created with the same address no second free trial', async () => {
    const service = adminClient(t.server);
    const { data, error } = await service.auth.admin.createUser({
      email: member.email.toUpperCase(),
      password: PASSWORD,
      email_confirm: true,
    });
    expect(error).toBeNull();
    const { rows } = await db().query<{ active: boolean }>(
      'select trial_ends_at > now() as active from public.profiles where user_id = $1',
      [data.user?.id],
    );
    expect(rows).toEqual([{ active: false }]);
    // A new address still starts with its trial; what is kept is a keyed hash, not the address.
    const fresh = await service.auth.admin.createUser({ email: `new-${member.email}`, email_confirm: true });
    const { rows: freshRows } = await db().query<{ active: boolean }>(
      'select trial_ends_at > now() as active from public.profiles where user_id = $1',
      [fresh.data.user?.id],
    );
    expect(freshRows).toEqual([{ active: true }]);
    expect(await count(`private.trial_history where mailbox_hash like '%@%'`, [])).toBe(0);
  });
});

describe('account deletion with blobs that cannot be moved (disk)', () => {
  let t: StorageTestServer;
  beforeAll(async () => {
    t = await startStorageServer('file');
  });
  afterAll(() => t?.close());

  const blobPath = (key: string) => join(t.server.dataDir, 'storage', 'objects', key.slice(0, 2), key);

  it('puts the first blob back when the second cannot be read', async () => {
    const member = await memberWithPassword(t);
    const [first, second] = member.blobs as [string, string];
    // A real fault: where the blob's file should be, there is a directory.
    await rm(blobPath(second));
    await mkdir(blobPath(second));
    const before = await snapshot(t, member);
    try {
      const response = await deletion(t, member.token);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: string }).error).toBe('deletion_failed');
      expect(await snapshot(t, member)).toEqual(before);
      expect(await trashRows(t.server.db)).toBe(0);
      expect(await bytesOf(t, first)).toEqual(PNG);
    } finally {
      await rm(blobPath(second), { recursive: true });
    }
  });

  it('changes nothing when a blob cannot be deleted (immutable directory), then succeeds once it can', async () => {
    const member = await memberWithPassword(t);
    const before = await snapshot(t, member);
    const directory = join(blobPath(member.blobs[1] as string), '..');
    // As root, permissions do not stop an unlink; the immutable attribute does.
    execFileSync('chattr', ['+i', directory]);
    try {
      const response = await deletion(t, member.token);
      expect(response.status).toBe(500);
      expect(await snapshot(t, member)).toEqual(before);
      expect(await trashRows(t.server.db)).toBe(0);
    } finally {
      execFileSync('chattr', ['-i', directory]);
    }
    expect((await deletion(t, member.token)).status).toBe(200);
    const after = await snapshot(t, member);
    expect(Object.entries(after.rows).filter(([, count]) => count > 0)).toEqual([]);
    expect(after.blobs.filter((key) => member.blobs.includes(key))).toEqual([]);
  });
});

describe('the deletion request', () => {
  let t: StorageTestServer;
  let member: Member;
  beforeAll(async () => {
    t = await startStorageServer('file');
    member = await seedMember(t);
  });
  afterAll(() => t?.close());

  it.each([
    ['no body', undefined, 400, 'confirmation_required'],
    ['an empty object', {}, 400, 'confirmation_required'],
    ['confirm_deletion false', { confirm_deletion: false }, 400, 'confirmation_required'],
    ['confirm_deletion "true"', { confirm_deletion: 'true' }, 400, 'confirmation_required'],
    ['confirm_deletion 1', { confirm_deletion: 1 }, 400, 'confirmation_required'],
    ['confirm_deletion [true]', { confirm_deletion: [true] }, 400, 'confirmation_required'],
    ['confirm_deletion null', { confirm_deletion: null }, 400, 'confirmation_required'],
    ['a JSON array', '[{"confirm_deletion":true}]', 400, 'invalid_body'],
    ['a bare true', 'true', 400, 'invalid_body'],
    ['broken JSON', '{"confirm_deletion": tru', 400, 'invalid_json'],
    ['a prototype-polluting key', '{"confirm_deletion":true,"__proto__":{"x":1}}', 400, 'invalid_json'],
    ['a huge body', { confirm_deletion: true, pad: 'x'.repeat(1_000_000) }, 413, 'payload_too_large'],
    ['script in the body', { confirm_deletion: '<script>alert(1)</script>' }, 400, 'confirmation_required'],
  ])('refuses %s', async (_name, body, status, error) => {
    const response = await fetch(`${t.url}/functions/v1/gdpr-data-deletion`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error, message: expect.any(String) });
    expect((await footprint(t.server.db, member.id, member.email))['auth.users']).toBe(1);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await fetch(`${t.url}/functions/v1/gdpr-data-deletion`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'text/plain' },
      body: '{"confirm_deletion":true}',
    });
    expect(response.status).toBe(415);
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH'])('answers %s with 405', async (method) => {
    const response = await fetch(`${t.url}/functions/v1/gdpr-data-deletion`, {
      method,
      headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' },
      ...(method === 'GET' ? {} : { body: '{"confirm_deletion":true}' }),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('DELETE, OPTIONS');
  });

  it('refuses anon and service-role tokens with 401 before reading the body', async () => {
    for (const key of [t.server.anonKey, t.server.serviceRoleKey]) {
      const response = await fetch(`${t.url}/functions/v1/gdpr-data-deletion`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${key}`, apikey: key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ confirm_deletion: true, user_id: member.id }),
      });
      expect(response.status).toBe(401);
    }
    expect((await footprint(t.server.db, member.id, member.email))['auth.users']).toBe(1);
  });

  it('answers an unknown function with a JSON 404', async () => {
    const response = await fetch(`${t.url}/functions/v1/does-not-exist`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });
});
