/**
 * DELETE /functions/v1/gdpr-data-deletion against the real server, database and blob backends (disk
 * and S3): everything of the caller goes — checked in the database and in the backend directly —
 * nobody else's does, and a deletion that fails halfway (real faults: a trigger that raises, a blob
 * that cannot be read, a directory that cannot be changed) leaves everything as it was.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '#server/auth/passwords.ts';
import { openBackend } from '#server/storage/backends/index.ts';
import {
  BACKENDS,
  blob,
  PNG,
  type StorageTestServer,
  startStorageServer,
} from '../compat/storage-support.ts';
import { footprint, type Member, seedMember, trashRows } from './functions-support.ts';

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
    expect(audit).toEqual([
      {
        payload: expect.objectContaining({ actor_id: member.id, actor_username: '', log_type: 'team' }),
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
