// @databases: both — the audit log and notify helpers are SQL triggers and functions.
/**
 * Issue 15's shared foundations (decision 100): the append-only audit log, `private.audit_row_change()`
 * and `private.audit(...)`, `private.notify(...)`, and the dashboard's counts — through supabase-js for
 * what the API exposes, and as the database superuser for what it must refuse even there.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: TestServer;
let service: SupabaseClient;
let admin: SignedInUser;
let member: SignedInUser;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: 'admin@foundations.example', fullName: 'Ada Admin' });
  member = await signedInUser(server, { email: 'member@foundations.example', fullName: 'Mel SignedInUser' });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
});
afterAll(() => server?.close());

describe('the audit log', () => {
  it('records a role grant with the actor, the operation, the row and its after-image', async () => {
    const other = await signedInUser(server, { email: 'other@foundations.example' });
    const granted = await admin.client
      .from('user_roles')
      .insert({ user_id: other.id, role: 'admin' })
      .select()
      .single();
    expect(granted.error).toBeNull();
    const { data, error } = await admin.client
      .from('admin_audit_log')
      .select('*')
      .eq('target_table', 'public.user_roles')
      .eq('target_id', granted.data.id);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data?.[0]).toMatchObject({
      actor_id: admin.id,
      actor_email: 'admin@foundations.example',
      action: 'INSERT',
      before: null,
      after: { user_id: other.id, role: 'admin' },
    });
    const revoked = await admin.client.from('user_roles').delete().eq('id', granted.data.id);
    expect(revoked.error).toBeNull();
    const after = await admin.client
      .from('admin_audit_log')
      .select('action, before, after')
      .eq('target_id', granted.data.id)
      .order('id');
    expect(after.data?.map((row) => row.action)).toEqual(['INSERT', 'DELETE']);
    expect(after.data?.[1]).toMatchObject({ before: { user_id: other.id }, after: null });
  });

  it('refuses every change and deletion, even by the database superuser', async () => {
    await server.db.query(`select private.audit('test.action', 'public.nothing', 'x', null, '{"a":1}')`);
    await expect(server.db.query('update private.audit_log set action = $1', ['forged'])).rejects.toThrow(
      /append-only/,
    );
    await expect(server.db.query('delete from private.audit_log')).rejects.toThrow(/append-only/);
    await expect(server.db.query('truncate private.audit_log')).rejects.toThrow(/append-only/);
    const { rows } = await server.db.query<{ n: string }>(
      `select count(*)::text as n from private.audit_log where action = 'test.action'`,
    );
    expect(rows[0]?.n).toBe('1');
  });

  it('shows a member nothing, and is not writable through the API by anyone', async () => {
    const read = await member.client.from('admin_audit_log').select('*');
    expect(read.error).toBeNull();
    expect(read.data).toEqual([]);
    const anon = await clientFor(server).from('admin_audit_log').select('*');
    expect(anon.error).not.toBeNull();
    for (const client of [member.client, admin.client]) {
      const insert = await client.from('admin_audit_log').insert({ action: 'forged', target_table: 'x' });
      expect(insert.error).not.toBeNull();
      const remove = await client.from('admin_audit_log').delete().gte('id', 0);
      expect(remove.error).not.toBeNull();
    }
    const rpc = await member.client.rpc('audit', {
      action: 'x',
      target_table: 'y',
      target_id: 'z',
      before: null,
      after: null,
    });
    expect(rpc.error).not.toBeNull();
  });
});

describe('private.notify', () => {
  it('adds a notification with its kind and link that the member reads, and skips unknown accounts', async () => {
    await server.db.query(
      `select private.notify($1, 'test.kind', 'Hello', 'A message for a person', '/booking')`,
      [member.id],
    );
    await server.db.query(`select private.notify(gen_random_uuid(), 'test.kind', 'Nobody', 'Nobody', '/')`);
    const { data, error } = await member.client
      .from('notifications')
      .select('kind, title, message, link, is_read');
    expect(error).toBeNull();
    expect(data).toContainEqual({
      kind: 'test.kind',
      title: 'Hello',
      message: 'A message for a person',
      link: '/booking',
      is_read: false,
    });
  });

  it('refuses links to other sites and script URLs', async () => {
    for (const link of [
      'https://evil.example/',
      '//evil.example/x',
      'javascript:alert(1)',
      '/\\evil.example',
    ]) {
      await expect(
        server.db.query(`select private.notify($1, 'test.kind', 'T', 'M', $2)`, [member.id, link]),
      ).rejects.toThrow(/notifications_link_format/);
    }
  });

  it('is not callable through the API', async () => {
    const answer = await member.client.rpc('notify', {
      user_id: member.id,
      kind: 'x',
      title: 'forged',
      message: 'forged',
      link: '/',
    });
    expect(answer.error).not.toBeNull();
  });
});

describe('admin_dashboard_counts', () => {
  it('gives an admin the counts of the dashboard home', async () => {
    await service.from('bookings').insert({
      full_name: 'Booker',
      email: 'booker@foundations.example',
      product_name: 'Sample product',
      product_category: 'Flower',
      booking_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
      booking_time: '10:00',
    });
    const { data, error } = await admin.client.rpc('admin_dashboard_counts');
    expect(error).toBeNull();
    expect(data).toMatchObject({
      reports_waiting: 0,
      bookings_new: 1,
      posts_published_week: 0,
      members_new_week: expect.any(Number),
      security_events_day: expect.any(Number),
    });
    expect(data.members_total).toBeGreaterThanOrEqual(3);
  });

  it('refuses a member and a visitor with a permission error', async () => {
    const asMember = await member.client.rpc('admin_dashboard_counts');
    expect(asMember.error?.message).toBe('Unauthorized');
    expect(asMember.status).toBe(403);
    const asVisitor = await clientFor(server).rpc('admin_dashboard_counts');
    expect(asVisitor.error).not.toBeNull();
    expect(asVisitor.data).toBeNull();
  });
});
