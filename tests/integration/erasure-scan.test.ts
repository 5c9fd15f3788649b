// @databases: both — the erasure is SQL (cascades, audit triggers, realtime) and must leave nothing on either database.
/**
 * Erasure is complete (issue 33, decision 185): a member does everything a member can — through the
 * API, as the web app does — an admin acts on what they did, the member deletes their account
 * (`gdpr-data-deletion`), and then no row of any table of the database (every schema, found in the
 * catalog: a later table is covered without being named) and no file under DATA_DIR holds their id,
 * email, username, display name or any text they wrote. The audit log keeps the facts (who did what,
 * when) under a pseudonym. The stored files are scanned in the backend that holds them: the data
 * directory on the PGlite tier, an S3 object store (s3rver) on the PostgreSQL tier — the two
 * installs an operator runs.
 */
import { crc32 } from 'node:zlib';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '#tests/e2e/support/images.ts';
import { adminClient } from '#tests/support/clients.ts';
import { blob, PNG, type StorageTestServer, startStorage } from '#tests/support/storage.ts';
import { type AuthTestServer, startAuthServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { SoftwareAuthenticator } from '#tests/support/webauthn.ts';
import { scanDatabase, scanFiles, scanObjects } from './erasure-support.ts';

type Options = { challenge: string };

let server: AuthTestServer;
let storage: StorageTestServer<AuthTestServer>;
let service: SupabaseClient;
let admin: SignedInUser;
let member: SignedInUser;
let other: SignedInUser;

const tag = Math.random().toString(36).slice(2, 8);
const names = {
  display: `Zelda Quinceworth ${tag}`,
  username: `zq_member_${tag}`,
  bio: `Grows heirloom kush in a barn ${tag}`,
  comment: `Smooth smoke and citrus notes ${tag}`,
  scammer: `Reginald Fakename ${tag}`,
  description: `Sells fake lab results ${tag}`,
  incident: `Paid four hundred upfront and the seller vanished ${tag}`,
  reply: `My side of the story about the delivery ${tag}`,
  watch: `Shady Seller ${tag}`,
  article: `An article I keep ${tag}`,
  claim: `Head grower ${tag}`,
  claimMessage: `I run this brand since 2019 ${tag}`,
  evidence: `receipt-${tag}.png`,
  passkey: `Laptop key ${tag}`,
  customer: `cus_${tag}Zq`,
  stripeSubscription: `sub_${tag}Zq`,
};

function check<T extends { error: { message: string } | null }>(result: T, what: string): T {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  return result;
}

/** The test PNG with a tEXt chunk (keyword, text) after its header, as cameras and editors write them. */
function pngWithText(keyword: string, text: string): Buffer {
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
  const type = Buffer.from('tEXt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const headerEnd = 8 + 25; // signature, then IHDR (length 4 + type 4 + 13 bytes + crc 4)
  return Buffer.concat([PNG.subarray(0, headerEnd), length, type, data, crc, PNG.subarray(headerEnd)]);
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  storage = await startStorage(
    process.env.TEST_DB === 'postgres' ? 's3' : 'file',
    { PASSKEY_ENABLED: 'true', VOTE_MIN_ACCOUNT_AGE_HOURS: '0' },
    startAuthServer,
  );
  server = storage.server;
  service = adminClient(server);
  admin = await signedInUser(server, { email: uniqueEmail('admin', 'erasure.example'), admin: true });
  other = await signedInUser(server, { email: uniqueEmail('other', 'erasure.example') });
  member = await signedInUser(server, {
    email: uniqueEmail('zelda', 'erasure.example'),
    fullName: names.display,
  });
});
afterAll(() => storage?.close());

/** What the member does, as the web app does it, and what an admin does about it. */
async function liveAMembersLife() {
  const me = member.client;
  // Profile with a chosen username, a bio and an avatar.
  const avatar = `${member.id}/avatar.png`;
  check(
    await me.storage
      .from('user-uploads')
      .upload(avatar, blob(pngWithText('Author', names.display), 'image/png')),
    'avatar',
  );
  const avatarUrl = me.storage.from('user-uploads').getPublicUrl(avatar).data.publicUrl;
  check(
    await me
      .from('profiles')
      .update({ username: names.username, bio: names.bio, avatar_url: avatarUrl })
      .eq('user_id', member.id),
    'profile',
  );
  check(
    await me
      .from('privacy_settings')
      .upsert({ user_id: member.id, show_email: true }, { onConflict: 'user_id' }),
    'privacy settings',
  );
  // Votes, comments, likes and reports of comments.
  const product = `product-${tag}`;
  check(
    await service.from('products').insert({ id: product, name: `Product ${tag}`, category: 'Flower' }),
    'product',
  );
  check(await me.from('product_votes').insert({ product_id: product, vote_type: 'pass' }), 'vote');
  const comment = check(
    await me
      .from('product_comments')
      .insert({ product_id: product, content: names.comment })
      .select('id')
      .single(),
    'comment',
  ).data as { id: string };
  const theirs = check(
    await other.client
      .from('product_comments')
      .insert({ product_id: product, content: `Another member's comment ${tag}` })
      .select('id')
      .single(),
    'other comment',
  ).data as { id: string };
  check(await me.from('product_comment_likes').insert({ comment_id: theirs.id }), 'like');
  check(await other.client.from('product_comment_likes').insert({ comment_id: comment.id }), 'liked');
  // Saved articles, watches, a subscription, a brand claim, a booking.
  check(
    await me
      .from('saved_articles')
      .insert({ article_title: names.article, article_url: `https://news.example/${tag}` }),
    'saved article',
  );
  check(await me.from('scammer_watches').insert({ kind: 'name', value: names.watch }), 'watch');
  // The subscription is the server's to write (payments); the member holds it.
  check(
    await service
      .from('scammer_subscriptions')
      .insert({ user_id: member.id, expires_at: new Date(Date.now() + 20 * 86_400_000).toISOString() }),
    'subscription',
  );
  // Paid through the card payment provider: its ids on the subscription, a webhook event naming them
  // (written as the webhook handler writes it; tests/integration/payments-stripe.test.ts drives the real one).
  await server.db.query(
    `update public.scammer_subscriptions set stripe_customer_id = $2, stripe_subscription_id = $3 where user_id = $1`,
    [member.id, names.customer, names.stripeSubscription],
  );
  await server.db.query(
    `insert into private.stripe_events (id, type, provider_created_at, outcome, summary)
     values ($1, 'customer.subscription.updated', now(), 'applied', $2)`,
    [
      `evt_${tag}`,
      JSON.stringify({
        kind: 'subscription',
        user_id: member.id,
        customer: names.customer,
        subscription: names.stripeSubscription,
        status: 'active',
        period_end: Math.floor(Date.now() / 1000) + 86_400,
      }),
    ],
  );
  const brand = check(
    await service
      .from('brands')
      .insert({ name: `Brand ${tag}`, slug: `brand-${tag}` })
      .select('id')
      .single(),
    'brand',
  ).data as { id: string };
  check(
    await me
      .from('brand_claims')
      .insert({ brand_id: brand.id, role_title: names.claim, message: names.claimMessage }),
    'brand claim',
  );
  const booking = check(
    await me
      .from('bookings')
      .insert({
        user_id: member.id,
        full_name: names.display,
        email: member.email,
        phone: '(303) 555-0142',
        product_name: 'Product',
        product_category: 'Flower',
        booking_date: tomorrow(),
        booking_time: '10:00',
      })
      .select('id')
      .single(),
    'booking',
  ).data as { id: string };
  // A report with evidence, published by an admin.
  const report = check(
    await me
      .from('scammer_reports')
      .insert({
        reporter_user_id: member.id,
        truth_confirmed_at: new Date().toISOString(),
        scammer_name: names.scammer,
        scammer_description: names.description,
        incident_details: names.incident,
      })
      .select('id')
      .single(),
    'report',
  ).data as { id: string };
  const evidence = `${report.id}/${crypto.randomUUID()}.png`;
  check(
    await me.from('scammer_report_evidence').insert({
      report_id: report.id,
      object_name: evidence,
      file_name: names.evidence,
      content_type: 'image/png',
    }),
    'evidence slot',
  );
  // The file goes through the server, which stores it without metadata (decision 199).
  const uploaded = await fetch(
    `${server.url}/functions/v1/evidence-upload?object_name=${encodeURIComponent(evidence)}`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}`, 'content-type': 'image/png' },
      body: new Uint8Array(pngBytes()),
    },
  );
  if (uploaded.status !== 200) throw new Error(`evidence file: ${uploaded.status} ${await uploaded.text()}`);
  // An admin approves it: the audit entry names the file, not the member.
  check(
    await admin.client
      .from('scammer_report_evidence')
      .update({ approved_at: new Date().toISOString() })
      .eq('object_name', evidence),
    'evidence approved',
  );
  // Published by another person, with the reviewers' summary (decision 195).
  for (const change of [{ status: 'under_review' }, { status: 'published', public_summary: 'Reviewed.' }]) {
    check(
      await admin.client.from('scammer_reports').update(change).eq('id', report.id),
      `report ${change.status}`,
    );
  }
  // A reply to a published report of someone else's, accepted by an admin.
  const named = check(
    await service
      .from('scammer_reports')
      .insert({
        reporter_user_id: other.id,
        scammer_name: `Another name ${tag}`,
        scammer_description: 'Sells fake lab results and disappears.',
        incident_details: 'Paid upfront; the seller stopped answering after payment.',
      })
      .select('id')
      .single(),
    'named report',
  ).data as { id: string };
  for (const change of [{ status: 'under_review' }, { status: 'published', public_summary: 'Reviewed.' }]) {
    check(
      await admin.client.from('scammer_reports').update(change).eq('id', named.id),
      `named ${change.status}`,
    );
  }
  const reply = check(
    await me
      .from('scammer_report_replies')
      .insert({ report_id: named.id, kind: 'reply', relation: 'person', body: names.reply })
      .select('id')
      .single(),
    'reply',
  ).data as { id: string };
  check(
    await admin.client.from('scammer_report_replies').update({ status: 'accepted' }).eq('id', reply.id),
    'reply accepted',
  );
  // The admin confirms the booking (audited) and writes to the member (bell and realtime broadcast).
  check(
    await admin.client.from('bookings').update({ status: 'confirmed' }).eq('id', booking.id),
    'booking confirmed',
  );
  check(
    await service
      .from('notifications')
      .insert({ user_id: member.id, title: `For ${names.display}`, message: `Hello ${names.username}` }),
    'notification',
  );
  // A security event, an export, a passkey.
  check(
    await me.rpc('log_security_event', {
      type: 'profile',
      action: 'changed',
      description: `Changed by ${names.username}`,
    }),
    'security event',
  );
  const exported = await fetch(`${server.url}/functions/v1/gdpr-data-export`, {
    method: 'POST',
    headers: { apikey: server.anonKey, Authorization: `Bearer ${member.token}` },
  });
  expect(exported.status).toBe(200);
  const key = new SoftwareAuthenticator(server.siteUrl);
  const started = await me.auth.passkey.startRegistration();
  expect(started.error).toBeNull();
  const { challenge_id, options } = started.data as unknown as { challenge_id: string; options: Options };
  const registered = await me.auth.passkey.verifyRegistration({
    challengeId: challenge_id,
    credential: key.create(options as never).toJSON(),
  } as never);
  expect(registered.error).toBeNull();
  const passkeyId = (registered.data as { id: string }).id;
  check(await me.auth.passkey.update({ passkeyId, friendlyName: names.passkey } as never), 'passkey name');
}

/** Everything that identifies the member: what the scan must not find after the erasure. */
function identifiers(): string[] {
  return [member.id, member.email, ...Object.values(names)];
}

describe('erasure leaves nothing of the member (issue 33)', () => {
  it('finds the member everywhere before, and nowhere in the database or DATA_DIR after', async () => {
    await liveAMembersLife();
    const before = await scanDatabase(server.db, identifiers());
    const tablesBefore = new Set(before.map((finding) => finding.table));
    const objectsBefore = await storage.objects();
    expect(objectsBefore.length).toBeGreaterThan(0);
    // The avatar carries the member's name in its metadata, as a camera's owner field would.
    expect(scanObjects(objectsBefore, identifiers())).toContainEqual({
      key: expect.any(String),
      identifier: names.display.toLowerCase(),
    });
    // The life left traces in the product, the auth service, storage, the audit log and realtime.
    for (const table of [
      'public.profiles',
      'public.product_comments',
      'public.scammer_reports',
      'public.scammer_report_replies',
      'public.bookings',
      'auth.users',
      'auth.webauthn_credentials',
      'storage.objects',
      'private.audit_log',
      'realtime.messages',
      'private.stripe_events',
    ]) {
      expect(tablesBefore, table).toContain(table);
    }
    const { rows: factsBefore } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log`,
    );
    const { rows: ownBefore } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log where actor_id = $1`,
      [member.id],
    );
    expect(ownBefore[0]?.n).toBeGreaterThan(0);

    const response = await fetch(`${server.url}/functions/v1/gdpr-data-deletion`, {
      method: 'DELETE',
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${member.token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ confirm_deletion: true }),
    });
    expect(response.status).toBe(200);

    expect(await scanDatabase(server.db, identifiers())).toEqual([]);
    // The object store (files or S3): no key or content of any object names the member.
    expect(scanObjects(await storage.objects(), identifiers())).toEqual([]);
    // DATA_DIR: the database files are the database (scanned above, row by row); everything else —
    // stored files, the mail outbox, keys — is read byte by byte.
    expect(await scanFiles(server.dataDir, identifiers(), (path) => path === 'db')).toEqual([]);

    // The audit log kept its entries (the facts), none lost.
    const { rows: factsAfter } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log`,
    );
    expect(factsAfter[0]?.n).toBeGreaterThanOrEqual(factsBefore[0]?.n ?? 0);
    // … as facts under the member's pseudonym: what they did, and what the admin did to their booking.
    const { rows: pseudonym } = await server.db.query<{ id: string }>(
      'select private.erasure_pseudonym($1)::text as id',
      [member.id],
    );
    const alias = pseudonym[0]?.id as string;
    expect(alias).toMatch(/^[0-9a-f-]{36}$/);
    expect(alias).not.toBe(member.id);
    const { rows: own } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log where actor_id = $1 and pseudonymised_at is not null`,
      [alias],
    );
    expect(own[0]?.n).toBeGreaterThanOrEqual(ownBefore[0]?.n ?? 1);
    const { rows: confirmed } = await server.db.query<{ actor_id: string; before: unknown; after: unknown }>(
      `select actor_id::text, before, after from private.audit_log
       where target_table = 'public.bookings' and action = 'UPDATE'`,
    );
    expect(confirmed).toEqual([
      {
        actor_id: admin.id,
        before: expect.objectContaining({ user_id: alias, status: 'new', product_category: 'Flower' }),
        after: expect.objectContaining({ user_id: alias, status: 'confirmed', booking_time: '10:00' }),
      },
    ]);
    for (const field of ['full_name', 'email', 'phone'])
      expect(confirmed[0]?.after as Record<string, unknown>).not.toHaveProperty(field);
    // The deletion's own entries (the cascade, as the rows were) are the pseudonym's doing.
    const { rows: cascade } = await server.db.query<{ table: string }>(
      `select target_table as table from private.audit_log where action = 'DELETE' and actor_id = $1
       order by target_table`,
      [alias],
    );
    expect(cascade.map((row) => row.table)).toEqual(
      expect.arrayContaining(['public.bookings', 'public.scammer_reports', 'public.scammer_report_replies']),
    );
  });
});

describe('short identifiers (issue 33)', () => {
  it('removes a one- or two-character name where it is a whole value, and leaves words that contain it', async () => {
    // An account to erase, named "Jo", and entries written by others: one naming Jo as a whole value
    // (no id links it to the account), one whose text merely contains "jo" inside other words.
    const id = crypto.randomUUID();
    await server.db.query(
      `insert into private.audit_log (action, target_table, target_id, after) values
         ('UPDATE', 'test.short_names', 'b-1', '{"full_name": "Jo", "status": "new"}'),
         ('UPDATE', 'test.short_names', 'b-2', '{"full_name": "Joanna Major", "status": "new"}'),
         ('UPDATE', 'test.short_names', 'JO', '{"status": "new"}')`,
    );
    await server.db.query(`select private.erase_member($1::uuid, array['Jo', ' '])`, [id]);
    const { rows } = await server.db.query<{ target_id: string | null; after: unknown }>(
      `select target_id, after from private.audit_log where target_table = 'test.short_names' order by id`,
    );
    expect(rows).toEqual([
      { target_id: 'b-1', after: { status: 'new' } },
      { target_id: 'b-2', after: { full_name: 'Joanna Major', status: 'new' } },
      { target_id: null, after: { status: 'new' } },
    ]);
  });
});
