// @databases: both — the status flow, one booking per slot and notifications are SQL (triggers, RLS).
/**
 * Issue 15 "Bookings" through supabase-js: the admin list (filters, sorting, pages), the status flow
 * with its internal note, one confirmed booking per slot, the booker's notification and mail — and a
 * member who can neither read the admin view nor move a booking, whatever they send.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

const DAY = 86_400_000;
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface BookingFields {
  full_name: string;
  email: string;
  product_name: string;
  product_category: string;
  booking_date: string;
  booking_time: string;
  user_id?: string | null;
}

function booking(overrides: Partial<BookingFields> = {}): BookingFields {
  return {
    full_name: 'Casey Booker',
    email: 'casey@bookings.example',
    product_name: 'Blue Dream',
    product_category: 'Flower',
    booking_date: isoDate(10),
    booking_time: '10:00',
    ...overrides,
  };
}

async function insertBooking(overrides: Partial<BookingFields> = {}): Promise<string> {
  const { data, error } = await service.from('bookings').insert(booking(overrides)).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function mailsTo(
  to: string,
): Promise<{ subject: string; text: string; type: string; action_url: string }[]> {
  const dir = join(server.dataDir, 'mail');
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const mails = await Promise.all(
    names.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8'))),
  );
  return mails.filter((mail) => mail.to === to);
}

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: 'admin@bookings.example', fullName: 'Ada Admin' });
  member = await signedInUser(server, { email: 'member@bookings.example', fullName: 'Mel SignedInUser' });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
});
afterAll(() => server?.close());

describe('the admin list', () => {
  it('filters by status, date and category, sorts, pages and counts', async () => {
    const day = isoDate(40);
    await insertBooking({
      booking_date: day,
      booking_time: '09:00',
      product_category: 'Edibles',
      product_name: 'A',
    });
    await insertBooking({
      booking_date: day,
      booking_time: '09:30',
      product_category: 'Edibles',
      product_name: 'B',
    });
    await insertBooking({
      booking_date: day,
      booking_time: '10:00',
      product_category: 'Seeds',
      product_name: 'C',
    });
    const edibles = await admin.client
      .from('admin_bookings')
      .select('product_name, booking_time, status, admin_note', { count: 'exact' })
      .eq('status', 'new')
      .eq('booking_date', day)
      .eq('product_category', 'Edibles')
      .order('booking_time', { ascending: false })
      .range(0, 0);
    expect(edibles.error).toBeNull();
    expect(edibles.count).toBe(2);
    expect(edibles.data).toEqual([
      { product_name: 'B', booking_time: '09:30', status: 'new', admin_note: null },
    ]);
  });

  it('shows a member and a visitor nothing', async () => {
    await insertBooking({ booking_date: isoDate(41) });
    const asMember = await member.client.from('admin_bookings').select('*');
    expect(asMember.error).toBeNull();
    expect(asMember.data).toEqual([]);
    const asVisitor = await clientFor(server).from('admin_bookings').select('*');
    expect(asVisitor.data ?? []).toEqual([]);
  });
});

describe('the status flow', () => {
  it('confirms a member booking: notification with a link, a mail, an audit row', async () => {
    const created = await member.client
      .from('bookings')
      .insert(booking({ user_id: member.id, email: 'member@bookings.example', booking_date: isoDate(12) }))
      .select('id, status')
      .single();
    expect(created.error).toBeNull();
    expect(created.data?.status).toBe('new');
    const id = created.data?.id as string;

    const confirmed = await admin.client.rpc('admin_update_booking', { booking_id: id, status: 'confirmed' });
    expect(confirmed.error).toBeNull();

    const own = await member.client.from('bookings').select('*').eq('id', id).single();
    expect(own.data.status).toBe('confirmed');
    expect(own.data).not.toHaveProperty('admin_note');

    const notes = await member.client
      .from('notifications')
      .select('kind, title, message, link')
      .eq('kind', 'booking.confirmed');
    expect(notes.data).toHaveLength(1);
    expect(notes.data?.[0]).toMatchObject({
      title: 'Your promo session is confirmed',
      link: '/booking#my-bookings',
    });
    expect(notes.data?.[0]?.message).toContain('Blue Dream');

    const mail = await eventually(async () => (await mailsTo('member@bookings.example'))[0]);
    expect(mail).toMatchObject({ type: 'booking_status', subject: 'Your promo session is confirmed' });
    expect(mail.text).toContain('Hello Casey Booker,');
    expect(mail.action_url).toMatch(/\/booking#my-bookings$/);

    const audit = await admin.client
      .from('admin_audit_log')
      .select('action, actor_id, before, after')
      .eq('target_id', id);
    expect(audit.data).toContainEqual(
      expect.objectContaining({
        action: 'UPDATE',
        actor_id: admin.id,
        before: expect.objectContaining({ status: 'new' }),
      }),
    );

    const completed = await admin.client.rpc('admin_update_booking', {
      booking_id: id,
      status: 'completed',
      note: 'Went well',
    });
    expect(completed.error).toBeNull();
    const row = await admin.client.from('admin_bookings').select('status, admin_note').eq('id', id).single();
    expect(row.data).toEqual({ status: 'completed', admin_note: 'Went well' });
  });

  it('mails an anonymous booker when declined, without a notification', async () => {
    const id = await insertBooking({ email: 'anonymous@bookings.example', booking_date: isoDate(13) });
    const declined = await admin.client.rpc('admin_update_booking', { booking_id: id, status: 'declined' });
    expect(declined.error).toBeNull();
    const mail = await eventually(async () => (await mailsTo('anonymous@bookings.example'))[0]);
    expect(mail.subject).toBe('Your booking request was declined');
  });

  it('refuses a second confirmed booking for the same date and slot, and changes nothing', async () => {
    const day = isoDate(20);
    const first = await insertBooking({ booking_date: day, booking_time: '14:00' });
    const second = await insertBooking({ booking_date: day, booking_time: '14:00' });
    expect(
      (await admin.client.rpc('admin_update_booking', { booking_id: first, status: 'confirmed' })).error,
    ).toBeNull();
    const again = await admin.client.rpc('admin_update_booking', {
      booking_id: second,
      status: 'confirmed',
      note: 'x',
    });
    expect(again.status).toBe(409);
    expect(again.error?.message).toBe(`Another booking is already confirmed for ${day} at 14:00.`);
    const direct = await admin.client.from('bookings').update({ status: 'confirmed' }).eq('id', second);
    expect(direct.status).toBe(409);
    const row = await admin.client
      .from('admin_bookings')
      .select('status, admin_note')
      .eq('id', second)
      .single();
    expect(row.data).toEqual({ status: 'new', admin_note: null });
  });

  it('refuses moves outside the flow, unknown statuses, long notes and bad ids with clear messages', async () => {
    const id = await insertBooking({ booking_date: isoDate(21) });
    await admin.client.rpc('admin_update_booking', { booking_id: id, status: 'declined' });
    const back = await admin.client.rpc('admin_update_booking', { booking_id: id, status: 'confirmed' });
    expect(back.status).toBe(400);
    expect(back.error?.message).toBe('A declined booking cannot be marked confirmed.');
    const unknown = await admin.client.rpc('admin_update_booking', {
      booking_id: id,
      status: 'approved<script>',
    });
    expect(unknown.error?.message).toBe('Unknown booking status: approved<script>.');
    const long = await admin.client.rpc('admin_update_booking', { booking_id: id, note: 'x'.repeat(2001) });
    expect(long.error?.message).toBe('The internal note can be at most 2000 characters.');
    const badId = await admin.client.rpc('admin_update_booking', {
      booking_id: 'not-a-uuid',
      status: 'confirmed',
    });
    expect(badId.status).toBe(400);
    const missing = await admin.client.rpc('admin_update_booking', {
      booking_id: '00000000-0000-4000-8000-000000000000',
      status: 'confirmed',
    });
    expect(missing.error?.message).toBe('Booking not found.');
    // An unknown row is the caller's 404, never a server error.
    expect(missing.status).toBe(404);
    const wrongType = await admin.client.rpc('admin_update_booking', {
      booking_id: id,
      status: { a: 1 } as never,
    });
    expect(wrongType.error).not.toBeNull();
    const row = await admin.client.from('admin_bookings').select('status, admin_note').eq('id', id).single();
    expect(row.data).toEqual({ status: 'declined', admin_note: null });
  });
});

describe('a member', () => {
  it('cannot book as confirmed, move a booking, set its note or read notes', async () => {
    const claimed = await member.client
      .from('bookings')
      .insert({ ...booking({ booking_date: isoDate(30) }), status: 'confirmed' });
    expect(claimed.error).not.toBeNull();
    const own = await member.client
      .from('bookings')
      .insert(booking({ user_id: member.id, booking_date: isoDate(31) }))
      .select('id')
      .single();
    const id = own.data?.id as string;
    const moved = await member.client.from('bookings').update({ status: 'confirmed' }).eq('id', id).select();
    expect(moved.data ?? []).toEqual([]);
    const rpc = await member.client.rpc('admin_update_booking', {
      booking_id: id,
      status: 'confirmed',
      note: 'mine',
    });
    expect(rpc.status).toBe(403);
    expect(rpc.error?.message).toBe('Unauthorized');
    const row = await service.from('bookings').select('status').eq('id', id).single();
    expect(row.data?.status).toBe('new');
    const others = await member.client.from('bookings').select('id').neq('user_id', member.id);
    expect(others.data).toEqual([]);
  });
});
