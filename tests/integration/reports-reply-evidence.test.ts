// @databases: both — replies, evidence and merges are SQL, RLS and storage policies.
/**
 * Issue 19, what the Scammer Network adds around a published report, through supabase-js:
 * - the right of reply (decision 126): members named in a published report send a reply, correction
 *   or takedown request; quotas; admins accept or decline (audited, sender notified and mailed); readers
 *   with access see accepted replies and corrections, never who sent them; an accepted takedown takes
 *   the report down;
 * - evidence files (decision 141): up to 5 per report in the private bucket, bytes checked against the
 *   declared type; no unapproved file reaches a non-admin through the Data API or the storage service;
 * - duplicates merged into another report (decision 142) disappear from readers, audited.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import exifr from 'exifr';
import { decodeJwt } from 'jose';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '#tests/e2e/support/images.ts';
import { adminClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { reviewSteps } from './report-review-support.ts';

let server: TestServer;
let service: SupabaseClient;
let admin: SignedInUser;
let reporter: SignedInUser;
let subscriber: SignedInUser;
let named: SignedInUser;
let lapsed: SignedInUser;

const DAY = 86_400_000;
const BUCKET = 'scammer-evidence';
/** A one-page PDF (pdf-lib), made in beforeAll. */
let PDF: Buffer;

/** What exifr reports of a PNG's header (IHDR): not metadata. */
const PNG_HEADER_FIELDS = [
  'ImageWidth',
  'ImageHeight',
  'BitDepth',
  'ColorType',
  'Compression',
  'Filter',
  'Interlace',
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG with a tEXt chunk (keyword, text) right after its header. */
function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  const data = Buffer.from(`${keyword}\0${text}`, 'latin1');
  const type = Buffer.from('tEXt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const afterHeader = 8 + 25; // signature, IHDR (length, type, 13 bytes, crc)
  return Buffer.concat([png.subarray(0, afterHeader), length, type, data, crc, png.subarray(afterHeader)]);
}

async function submit(overrides: Record<string, unknown> = {}): Promise<string> {
  const values = {
    scammer_name: `Reginald Fakename ${Math.random().toString(36).slice(2, 8)}`,
    scammer_description: 'Sells fake lab results and disappears.',
    incident_details: 'Paid $400 upfront for two ounces; the seller stopped answering after payment.',
    location: 'Denver, CO',
    contact_info: '(303) 555-0199',
    amount_scammed: 400,
    reporter_user_id: reporter.id,
    ...overrides,
  };
  const { data, error } = await service.from('scammer_reports').insert(values).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function publish(id: string) {
  // Publishing carries the reviewers' summary (decision 195).
  await reviewSteps(admin.client, id, [
    { status: 'under_review' },
    { status: 'published', public_summary: 'A member reports paying for an order that never came.' },
  ]);
}

async function endTrial(user: SignedInUser) {
  const { error } = await service
    .from('profiles')
    .update({ trial_ends_at: new Date(Date.now() - DAY).toISOString() })
    .eq('user_id', user.id);
  if (error) throw new Error(error.message);
}

/** The reporter's way: the slot first, then the file through the evidence-upload function. */
async function attach(
  reportId: string,
  body: Buffer,
  contentType: string,
  ext: string,
  user: SignedInUser = reporter,
): Promise<{ name: string; error: string | null; status: number }> {
  const name = `${reportId}/${crypto.randomUUID()}.${ext}`;
  const slot = await user.client
    .from('scammer_report_evidence')
    .insert({ report_id: reportId, object_name: name, file_name: `photo.${ext}`, content_type: contentType });
  if (slot.error) return { name, error: slot.error.message, status: 0 };
  const { status, message } = await sendEvidence(name, body, contentType, user);
  return { name, error: status === 200 ? null : message, status };
}

async function sendEvidence(name: string, body: Buffer, contentType: string, user: SignedInUser = reporter) {
  const response = await fetch(
    `${server.url}/functions/v1/evidence-upload?object_name=${encodeURIComponent(name)}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
      body: new Uint8Array(body),
    },
  );
  const answer = (await response.json()) as { message?: string };
  return { status: response.status, message: answer.message ?? null };
}

beforeAll(async () => {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]).drawText('Receipt 1001');
  PDF = Buffer.from(await pdf.save());
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: uniqueEmail('admin', 'reply.example') });
  reporter = await signedInUser(server, { email: uniqueEmail('reporter', 'reply.example') });
  subscriber = await signedInUser(server, { email: uniqueEmail('subscriber', 'reply.example') });
  named = await signedInUser(server, { email: uniqueEmail('named', 'reply.example') });
  lapsed = await signedInUser(server, { email: uniqueEmail('lapsed', 'reply.example') });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
  for (const user of [reporter, subscriber, named, lapsed]) await endTrial(user);
  const subscribed = await service.from('scammer_subscriptions').insert({
    user_id: subscriber.id,
    expires_at: new Date(Date.now() + 20 * DAY).toISOString(),
  });
  if (subscribed.error) throw new Error(subscribed.error.message);
});
afterAll(() => server?.close());

describe('right of reply', () => {
  const reply = (reportId: string, overrides: Record<string, unknown> = {}) => ({
    report_id: reportId,
    kind: 'reply',
    relation: 'person',
    body: 'I delivered the order on time; the tracking number is in my records.',
    ...overrides,
  });

  it('only about a published report, never by its reporter, one waiting per report', async () => {
    const draft = await submit();
    const early = await named.client.from('scammer_report_replies').insert(reply(draft));
    expect(early.error?.code).toBe('23514');
    expect(early.error?.message).toBe(
      'This report is not published: replies can be sent only about a published report.',
    );
    const unknown = await named.client.from('scammer_report_replies').insert(reply(crypto.randomUUID()));
    expect(unknown.error?.message).toBe(early.error?.message);

    const id = await submit();
    await publish(id);
    const own = await reporter.client.from('scammer_report_replies').insert(reply(id));
    expect(own.error?.message).toBe(
      'You reported this: replies are for the people and businesses named in a report.',
    );
    const forged = await named.client
      .from('scammer_report_replies')
      .insert(reply(id, { status: 'accepted', decision_note: 'self-approved' }));
    expect(forged.error?.code).toBe('42501');
    const asOther = await named.client
      .from('scammer_report_replies')
      .insert(reply(id, { user_id: subscriber.id }));
    expect(asOther.error?.code).toBe('42501');
    const short = await named.client.from('scammer_report_replies').insert(reply(id, { body: 'not me' }));
    expect(short.error?.code).toBe('23514');

    const sent = await named.client.from('scammer_report_replies').insert(reply(id));
    expect(sent.error).toBeNull();
    const again = await named.client.from('scammer_report_replies').insert(reply(id, { kind: 'correction' }));
    expect(again.error?.message).toBe('You already have a request waiting for review on this report.');

    // The sender cannot decide their own request.
    const selfAccept = await named.client
      .from('scammer_report_replies')
      .update({ status: 'accepted' })
      .eq('report_id', id)
      .select();
    expect(selfAccept.data ?? []).toEqual([]);
  });

  it('accepted: shown to readers with access (no sender), audited, sender told; declined needs a note', async () => {
    const id = await submit();
    await publish(id);
    const sent = await named.client.from('scammer_report_replies').insert(reply(id)).select('id').single();
    expect(sent.error).toBeNull();
    const replyId = sent.data?.id as string;

    // Nobody but the sender and admins reads a pending one.
    for (const reader of [subscriber, lapsed, reporter]) {
      const table = await reader.client.from('scammer_report_replies').select('id').eq('id', replyId);
      expect(table.data).toEqual([]);
      const shown = await reader.client
        .from('published_scammer_report_replies')
        .select('id')
        .eq('report_id', id);
      expect(shown.data ?? []).toEqual([]);
    }

    const noNote = await admin.client
      .from('scammer_report_replies')
      .update({ status: 'declined' })
      .eq('id', replyId);
    expect(noNote.error?.message).toBe('Declining needs a note: the sender is told why.');
    const editWords = await admin.client
      .from('scammer_report_replies')
      .update({ body: 'x'.repeat(30) })
      .eq('id', replyId);
    expect(editWords.error?.code).toBe('42501');
    const accept = await admin.client
      .from('scammer_report_replies')
      .update({ status: 'accepted' })
      .eq('id', replyId);
    expect(accept.error).toBeNull();

    const shown = await subscriber.client
      .from('published_scammer_report_replies')
      .select('*')
      .eq('report_id', id);
    expect(shown.data).toHaveLength(1);
    expect(shown.data?.[0]).not.toHaveProperty('user_id');
    expect(shown.data?.[0]).toMatchObject({ kind: 'reply', relation: 'person' });
    const lapsedView = await lapsed.client
      .from('published_scammer_report_replies')
      .select('id')
      .eq('report_id', id);
    expect(lapsedView.data ?? []).toEqual([]);
    const asAdmin = await admin.client
      .from('published_scammer_report_replies')
      .select('id')
      .eq('report_id', id);
    expect(asAdmin.data).toHaveLength(1);

    const row = await service
      .from('scammer_report_replies')
      .select('decided_by, decided_at')
      .eq('id', replyId)
      .single();
    expect(row.data?.decided_by).toBe(admin.id);
    expect(row.data?.decided_at).not.toBeNull();
    const audit = await server.db.query<{ action: string; actor_id: string | null }>(
      `select action, actor_id from private.audit_log where target_table = 'public.scammer_report_replies' and target_id = $1 order by id`,
      [replyId],
    );
    expect(audit.rows).toEqual([
      { action: 'INSERT', actor_id: named.id },
      { action: 'UPDATE', actor_id: admin.id },
    ]);
    const notes = await named.client
      .from('notifications')
      .select('kind, link')
      .eq('kind', 'scammer_reply.accepted');
    expect(notes.data).toEqual([{ kind: 'scammer_reply.accepted', link: `/scammer-database/${id}/reply` }]);
    const mails = await server.db.query<{ subject: string }>(
      `select subject from private.mail_queue where to_email = $1 and type = 'scammer_reply_decision'`,
      [named.email],
    );
    expect(mails.rows.map((m) => m.subject)).toContain('Your reply was accepted');

    // Withdrawn later: declined with a note, no longer shown.
    const withdraw = await admin.client
      .from('scammer_report_replies')
      .update({ status: 'declined', decision_note: 'It names a third party.' })
      .eq('id', replyId);
    expect(withdraw.error).toBeNull();
    const gone = await subscriber.client
      .from('published_scammer_report_replies')
      .select('id')
      .eq('report_id', id);
    expect(gone.data).toEqual([]);
  });

  it('an accepted takedown request takes the report down for review', async () => {
    const id = await submit();
    await publish(id);
    const sent = await named.client
      .from('scammer_report_replies')
      .insert(reply(id, { kind: 'takedown', relation: 'business' }))
      .select('id')
      .single();
    const accept = await admin.client
      .from('scammer_report_replies')
      .update({ status: 'accepted', decision_note: 'We are checking the evidence again.' })
      .eq('id', sent.data?.id);
    expect(accept.error).toBeNull();
    const report = await service.from('scammer_reports').select('status').eq('id', id).single();
    expect(report.data?.status).toBe('under_review');
    const readers = await subscriber.client.from('published_scammer_reports').select('id').eq('id', id);
    expect(readers.data).toEqual([]);
    const takedownShown = await admin.client
      .from('published_scammer_report_replies')
      .select('id')
      .eq('report_id', id);
    expect(takedownShown.data).toEqual([]);
  });
});

describe('evidence files', () => {
  it('up to 5 per report, only into their slot, bytes matching the declared type', async () => {
    const id = await submit();
    const png = await attach(id, pngBytes(), 'image/png', 'png');
    expect(png.error).toBeNull();
    const pdf = await attach(id, PDF, 'application/pdf', 'pdf');
    expect(pdf.error).toBeNull();
    // A PDF declared as an image: the server reads the bytes.
    const lying = await attach(id, PDF, 'image/png', 'png');
    expect(lying).toMatchObject({ status: 415, error: expect.stringMatching(/content does not match/i) });
    await reporter.client.from('scammer_report_evidence').delete().eq('object_name', lying.name);
    // No slot, no upload; someone else's report, no slot; nobody writes into the bucket directly, not
    // even into their own slot (the original would skip the cleaning, decision 199).
    const stray = await sendEvidence(`${id}/${crypto.randomUUID()}.png`, pngBytes(), 'image/png');
    expect(stray.status).toBe(403);
    const foreign = await attach(id, pngBytes(), 'image/png', 'png', subscriber);
    expect(foreign.error).not.toBeNull();
    const direct = `${id}/${crypto.randomUUID()}.png`;
    const directSlot = await reporter.client
      .from('scammer_report_evidence')
      .insert({ report_id: id, object_name: direct, file_name: 'a.png', content_type: 'image/png' });
    expect(directSlot.error).toBeNull();
    const bypass = await reporter.client.storage
      .from(BUCKET)
      .upload(direct, pngBytes(), { contentType: 'image/png' });
    expect(bypass.error).not.toBeNull();
    await reporter.client.from('scammer_report_evidence').delete().eq('object_name', direct);
    // Outside the report's folder.
    const elsewhere = await reporter.client.from('scammer_report_evidence').insert({
      report_id: id,
      object_name: `${crypto.randomUUID()}/${crypto.randomUUID()}.png`,
      file_name: 'a.png',
      content_type: 'image/png',
    });
    expect(elsewhere.error?.code).toBe('23514');
    for (let i = 0; i < 3; i += 1)
      expect((await attach(id, pngBytes(), 'image/png', 'png')).error).toBeNull();
    const sixth = await attach(id, pngBytes(), 'image/png', 'png');
    expect(sixth.error).toBe('A report can have up to 5 evidence files.');
    const self = await reporter.client
      .from('scammer_report_evidence')
      .update({ approved_at: new Date().toISOString() })
      .eq('report_id', id)
      .select();
    expect(self.data ?? []).toEqual([]);
  });

  it('no unapproved file reaches a non-admin, through the API or storage', async () => {
    const id = await submit();
    const approvedLater = await attach(id, pngBytes(), 'image/png', 'png');
    const neverApproved = await attach(id, PDF, 'application/pdf', 'pdf');
    expect([approvedLater.error, neverApproved.error]).toEqual([null, null]);

    async function readable(user: SignedInUser, name: string): Promise<boolean> {
      const signed = await user.client.storage.from(BUCKET).createSignedUrl(name, 60);
      const download = await user.client.storage.from(BUCKET).download(name);
      const listed = await user.client.storage.from(BUCKET).list(id);
      const seen = listed.data?.some((o) => `${id}/${o.name}` === name) ?? false;
      const answers = [signed.data !== null, download.data !== null, seen];
      expect(new Set(answers).size).toBe(1);
      return answers[0] as boolean;
    }
    const evidenceFor = async (user: SignedInUser) =>
      (await user.client.from('published_scammer_report_evidence').select('object_name').eq('report_id', id))
        .data ?? [];

    // Submitted: only the reporter and admins.
    expect(await readable(reporter, approvedLater.name)).toBe(true);
    expect(await readable(admin, neverApproved.name)).toBe(true);
    expect(await readable(subscriber, approvedLater.name)).toBe(false);
    expect(await evidenceFor(subscriber)).toEqual([]);
    const table = await subscriber.client.from('scammer_report_evidence').select('id').eq('report_id', id);
    expect(table.data).toEqual([]);

    // Published, nothing approved yet: still nothing.
    await publish(id);
    expect(await readable(subscriber, approvedLater.name)).toBe(false);
    expect(await evidenceFor(subscriber)).toEqual([]);

    // One file approved: that one, to readers with access only; as signed URL that works without a key.
    const approve = await admin.client
      .from('scammer_report_evidence')
      .update({ approved_at: new Date().toISOString() })
      .eq('object_name', approvedLater.name)
      .select('approved_by')
      .single();
    expect(approve.data?.approved_by).toBe(admin.id);
    expect(await evidenceFor(subscriber)).toEqual([{ object_name: approvedLater.name }]);
    expect(await readable(subscriber, approvedLater.name)).toBe(true);
    expect(await readable(subscriber, neverApproved.name)).toBe(false);
    expect(await readable(lapsed, approvedLater.name)).toBe(false);
    expect(await evidenceFor(lapsed)).toEqual([]);
    const signed = await subscriber.client.storage.from(BUCKET).createSignedUrl(approvedLater.name, 60);
    const fetched = await fetch(signed.data?.signedUrl as string);
    expect(fetched.status).toBe(200);
    // The cleaned copy: the same picture, re-encoded (decision 199).
    const served = await sharp(Buffer.from(await fetched.arrayBuffer())).metadata();
    expect([served.format, served.width, served.height]).toEqual(['png', 16, 16]);
    // Asked through the API for a year, a link still lives at most the bucket's 120 s (decision 154),
    // alone and in a batch.
    const lifetime = (url: string | null | undefined) => {
      const { exp, iat } = decodeJwt(new URL(url as string).searchParams.get('token') as string);
      return Number(exp) - Number(iat);
    };
    const year = 365 * 24 * 3600;
    const long = await subscriber.client.storage.from(BUCKET).createSignedUrl(approvedLater.name, year);
    expect(lifetime(long.data?.signedUrl)).toBe(120);
    const batch = await subscriber.client.storage.from(BUCKET).createSignedUrls([approvedLater.name], year);
    expect(lifetime(batch.data?.[0]?.signedUrl)).toBe(120);
    expect(lifetime(signed.data?.signedUrl)).toBe(60);
    // The reader's row names no file and no reporter.
    const row = await subscriber.client
      .from('published_scammer_report_evidence')
      .select('*')
      .eq('report_id', id)
      .single();
    expect(Object.keys(row.data ?? {}).sort()).toEqual([
      'approved_at',
      'content_type',
      'id',
      'object_name',
      'report_id',
    ]);

    // Taken down: nothing again.
    const down = await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id);
    expect(down.error).toBeNull();
    expect(await readable(subscriber, approvedLater.name)).toBe(false);
    expect(await evidenceFor(subscriber)).toEqual([]);
    // Nobody deletes but admins.
    const removed = await reporter.client.storage.from(BUCKET).remove([approvedLater.name]);
    expect(removed.data ?? []).toEqual([]);
  });

  it('files lose their metadata before approval; readers download only the cleaned copy', async () => {
    const id = await submit();
    const secret = 'Jane Reporter';
    const exif = {
      IFD0: { Artist: secret, Copyright: secret, ImageDescription: secret },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '39/1 44/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '104/1 59/1 0/1',
      },
    };
    const pixels = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 60 } },
    })
      .png()
      .toBuffer();
    // A phone photo: GPS position, the owner's name, turned by its EXIF orientation.
    const jpeg = await sharp(pixels).withExif(exif).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const before = await exifr.parse(jpeg, true);
    expect([before.Artist, Math.round(before.latitude)]).toEqual([secret, 40]);
    const webp = await sharp(pixels).withExif(exif).webp().toBuffer();
    expect((await sharp(webp).metadata()).exif).toBeDefined();
    const png = withPngText(await sharp(pixels).withExif(exif).png().toBuffer(), 'Author', secret);
    expect(Object.values((await exifr.parse(png, true)) ?? {})).toContain(secret);
    const document = await PDFDocument.create();
    document.addPage([300, 200]).drawText('Invoice 1001');
    for (const set of [
      () => document.setAuthor(secret),
      () => document.setTitle(`Notes by ${secret}`),
      () => document.setSubject(secret),
      () => document.setKeywords([secret]),
      () => document.setCreator(secret),
      () => document.setProducer(secret),
    ])
      set();
    const pdf = Buffer.from(await document.save());
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getAuthor()).toBe(secret);

    const files = [
      await attach(id, jpeg, 'image/jpeg', 'jpg'),
      await attach(id, png, 'image/png', 'png'),
      await attach(id, webp, 'image/webp', 'webp'),
      await attach(id, pdf, 'application/pdf', 'pdf'),
    ];
    expect(files.map((file) => file.error)).toEqual([null, null, null, null]);
    // A file that cannot be read is refused with a reason; its slot stays empty and unapprovable.
    const other = await submit();
    const broken = await attach(
      other,
      Buffer.from(`%PDF-1.7\n${'garbage '.repeat(40)}`),
      'application/pdf',
      'pdf',
    );
    expect(broken).toMatchObject({ status: 422, error: expect.stringMatching(/PDF could not be read/) });
    const truncated = await attach(other, jpeg.subarray(0, 200), 'image/jpeg', 'jpg');
    expect(truncated).toMatchObject({ status: 422, error: expect.stringMatching(/image could not be read/) });
    // Not cleaned, not approved: the database refuses, whoever asks.
    const early = await admin.client
      .from('scammer_report_evidence')
      .update({ approved_at: new Date().toISOString() })
      .eq('object_name', broken.name);
    expect(early.error?.message).toMatch(/scammer_report_evidence_approved_cleaned/);
    // The reporter cannot say a file is cleaned.
    const forged = await reporter.client
      .from('scammer_report_evidence')
      .insert({
        report_id: other,
        object_name: `${other}/${crypto.randomUUID()}.png`,
        file_name: 'a.png',
        content_type: 'image/png',
        cleaned_at: new Date().toISOString(),
      })
      .select('cleaned_at')
      .single();
    expect(forged.data?.cleaned_at).toBeNull();
    // A cleaned slot takes no second file.
    expect((await sendEvidence(files[0]?.name as string, jpeg, 'image/jpeg')).status).toBe(409);

    await publish(id);
    for (const file of files) {
      const approve = await admin.client
        .from('scammer_report_evidence')
        .update({ approved_at: new Date().toISOString() })
        .eq('object_name', file.name);
      expect(approve.error).toBeNull();
    }
    const download = async (name: string) => {
      const signed = await subscriber.client.storage.from(BUCKET).createSignedUrl(name, 60);
      const response = await fetch(signed.data?.signedUrl as string);
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const [readJpeg, readPng, readWebp, readPdf] = await Promise.all(
      files.map((file) => download(file.name)),
    );
    for (const bytes of [readJpeg, readPng, readWebp, readPdf]) expect(bytes?.includes(secret)).toBe(false);
    // JPEG: no EXIF or GPS left; the orientation is applied to the pixels (64 × 48 turned upright).
    expect(await exifr.parse(readJpeg as Buffer, true)).toBeUndefined();
    const upright = await sharp(readJpeg).metadata();
    expect([upright.width, upright.height, upright.exif, upright.icc, upright.xmp]).toEqual([
      48,
      64,
      undefined,
      undefined,
      undefined,
    ]);
    // PNG: only the image header remains (no text chunk, no eXIf).
    const pngLeft = Object.keys((await exifr.parse(readPng as Buffer, true)) ?? {});
    expect(pngLeft.every((key) => PNG_HEADER_FIELDS.includes(key))).toBe(true);
    const webpLeft = await sharp(readWebp).metadata();
    expect([webpLeft.format, webpLeft.exif, webpLeft.xmp, webpLeft.icc]).toEqual([
      'webp',
      undefined,
      undefined,
      undefined,
    ]);
    // PDF: the pages, no document metadata.
    const cleanedPdf = await PDFDocument.load(readPdf as Buffer, { updateMetadata: false });
    expect([
      cleanedPdf.getPageCount(),
      cleanedPdf.getAuthor(),
      cleanedPdf.getTitle(),
      cleanedPdf.getSubject(),
      cleanedPdf.getKeywords(),
      cleanedPdf.getCreator(),
      cleanedPdf.getProducer(),
      cleanedPdf.getCreationDate(),
    ]).toEqual([1, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(cleanedPdf.catalog.get(PDFName.of('Metadata'))).toBeUndefined();
    // The original is kept nowhere: the admin's copy is the cleaned one too.
    const adminCopy = await admin.client.storage.from(BUCKET).download(files[0]?.name as string);
    expect(Buffer.from(await (adminCopy.data as Blob).arrayBuffer()).equals(readJpeg as Buffer)).toBe(true);
  });

  it('no public URL: the bucket is private', async () => {
    const id = await submit();
    const file = await attach(id, pngBytes(), 'image/png', 'png');
    expect(file.error).toBeNull();
    const url = service.storage.from(BUCKET).getPublicUrl(file.name).data.publicUrl;
    expect((await fetch(url)).status).toBeGreaterThanOrEqual(400);
  });
});

describe('duplicates merged into another report', () => {
  it('a merged report disappears from readers, search and links; audited; reporter told', async () => {
    const shared = '+1 720 555 0111';
    const keep = await submit({ contact_info: shared });
    const duplicate = await submit({ contact_info: `(720) 555-0111` });
    await publish(keep);
    await publish(duplicate);
    const before = await subscriber.client.rpc('linked_scammer_reports', { report_id: keep });
    expect(before.data?.map((r: { id: string }) => r.id)).toContain(duplicate);

    const bad = await admin.client
      .from('scammer_reports')
      .update({ merged_into: crypto.randomUUID() })
      .eq('id', duplicate);
    expect(bad.error?.code).toBe('23514');
    const unpublished = await submit();
    const notPublished = await admin.client
      .from('scammer_reports')
      .update({ merged_into: unpublished })
      .eq('id', duplicate);
    expect(notPublished.error?.message).toBe(
      'A report can be merged only into a published report that is not merged itself.',
    );
    const byMember = await reporter.client
      .from('scammer_reports')
      .update({ merged_into: keep })
      .eq('id', duplicate)
      .select();
    expect(byMember.data ?? []).toEqual([]);

    const merge = await admin.client
      .from('scammer_reports')
      .update({ merged_into: keep })
      .eq('id', duplicate);
    expect(merge.error).toBeNull();
    const chain = await admin.client
      .from('scammer_reports')
      .update({ merged_into: duplicate })
      .eq('id', keep);
    expect(chain.error?.code).toBe('23514');

    const view = await subscriber.client
      .from('published_scammer_reports')
      .select('id')
      .in('id', [keep, duplicate]);
    expect(view.data?.map((r) => r.id)).toEqual([keep]);
    const search = await subscriber.client.rpc('search_scammer_reports', { query: '720-555-0111' });
    expect(search.data?.map((r: { id: string }) => r.id)).toEqual([keep]);
    const after = await subscriber.client.rpc('linked_scammer_reports', { report_id: keep });
    expect(after.data?.map((r: { id: string }) => r.id) ?? []).not.toContain(duplicate);
    const mine = await reporter.client
      .from('scammer_reports')
      .select('merged_into')
      .eq('id', duplicate)
      .single();
    expect(mine.data?.merged_into).toBe(keep);
    const audit = await server.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log where target_table = 'public.scammer_reports' and target_id = $1
         and after ->> 'merged_into' = $2 and actor_id = $3`,
      [duplicate, keep, admin.id],
    );
    expect(audit.rows[0]?.n).toBe(1);
    const note = await reporter.client
      .from('notifications')
      .select('kind')
      .eq('kind', 'scammer_report.merged');
    expect(note.data?.length).toBeGreaterThanOrEqual(1);
  });

  it('a report is linked to a brand by admins only', async () => {
    const slug = `reply-test-${Math.random().toString(36).slice(2, 8)}`;
    const { data: brand, error } = await service
      .from('brands')
      .insert({ name: 'Reply Test Farms', slug })
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = await submit();
    const byMember = await reporter.client
      .from('scammer_reports')
      .update({ brand_id: brand?.id })
      .eq('id', id)
      .select();
    expect(byMember.data ?? []).toEqual([]);
    const byAdmin = await admin.client.from('scammer_reports').update({ brand_id: brand?.id }).eq('id', id);
    expect(byAdmin.error).toBeNull();
  });
});

describe('a fair process for the people named (issue 32 part 3, decision 201)', () => {
  const takedown = (reportId: string) => ({
    report_id: reportId,
    kind: 'takedown',
    relation: 'business',
    body: 'This report is about a dispute that was settled; please review it again.',
  });
  const kinds = async (user: SignedInUser, kind: string) =>
    (await user.client.from('notifications').select('link').eq('kind', kind)).data?.map((n) => n.link) ?? [];

  it("a brand's approved representative reads the reports linked to their brand free, nothing else", async () => {
    const rep = await signedInUser(server, { email: uniqueEmail('rep', 'reply.example') });
    await endTrial(rep);
    const { data: brand, error } = await service
      .from('brands')
      .insert({ name: 'Fair Process Farms', slug: `fair-${Math.random().toString(36).slice(2, 8)}` })
      .select('id')
      .single();
    expect(error).toBeNull();
    const claim = await rep.client
      .from('brand_claims')
      .insert({ brand_id: brand?.id, user_id: rep.id, role_title: 'Owner' })
      .select('id')
      .single();
    expect(claim.error).toBeNull();
    // No report yet: still an answer, with nothing to read.
    const none = await rep.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(none.data).toMatchObject({ count: 0, ids: [], is_representative: false });
    const linked = await submit();
    const other = await submit();
    for (const id of [linked, other]) await publish(id);
    expect(
      (await admin.client.from('scammer_reports').update({ brand_id: brand?.id }).eq('id', linked)).error,
    ).toBeNull();

    // A pending claim is not enough.
    const before = await rep.client.from('published_scammer_reports').select('id').eq('id', linked);
    expect(before.data).toEqual([]);
    expect(
      (await admin.client.from('brand_claims').update({ status: 'approved' }).eq('id', claim.data?.id)).error,
    ).toBeNull();

    const read = await rep.client
      .from('published_scammer_reports')
      .select('id, public_summary')
      .in('id', [linked, other]);
    expect(read.data?.map((r) => r.id)).toEqual([linked]);
    const listed = await rep.client.rpc('search_scammer_reports', { brand: brand?.id });
    expect(listed.data?.map((r: { id: string }) => r.id)).toEqual([linked]);
    const everything = await rep.client.rpc('search_scammer_reports', {});
    expect(everything.error?.code).toBe('42501');
    const linkedOthers = await rep.client.rpc('linked_scammer_reports', { report_id: linked });
    expect([linkedOthers.error, linkedOthers.data]).toEqual([null, []]);
    const summary = await rep.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(summary.data).toMatchObject({
      count: 1,
      ids: [linked],
      has_access: true,
      is_representative: true,
    });
    const outsider = await lapsed.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(outsider.data).toMatchObject({
      count: 1,
      ids: [linked],
      has_access: false,
      is_representative: false,
    });
    expect(
      (await lapsed.client.from('published_scammer_reports').select('id').eq('id', linked)).data,
    ).toEqual([]);

    // The reply page: the report as readers see it, to the representative and to a sender.
    const forRep = await rep.client.rpc('scammer_report_for_reply', { report_id: linked });
    expect(forRep.data?.map((r: { id: string }) => r.id)).toEqual([linked]);
    expect((await lapsed.client.rpc('scammer_report_for_reply', { report_id: other })).data).toEqual([]);
    expect((await lapsed.client.from('scammer_report_replies').insert(takedown(other))).error).toBeNull();
    const forSender = await lapsed.client.rpc('scammer_report_for_reply', { report_id: other });
    expect(forSender.data?.map((r: { id: string }) => r.id)).toEqual([other]);
    expect(forSender.data?.[0]).not.toHaveProperty('reporter_user_id');
  });

  it('a takedown request’s sender hears every outcome: republished, kept down, deleted', async () => {
    // A sender of their own: replies are limited to 3 a day per account.
    const sender = await signedInUser(server, { email: uniqueEmail('sender', 'reply.example') });
    const outcomes: Record<string, string> = {};
    for (const end of ['republished', 'kept_down', 'report_deleted']) {
      const id = await submit();
      await publish(id);
      const sent = await sender.client
        .from('scammer_report_replies')
        .insert(takedown(id))
        .select('id')
        .single();
      expect(sent.error).toBeNull();
      if (end !== 'report_deleted') {
        const accept = await admin.client
          .from('scammer_report_replies')
          .update({ status: 'accepted' })
          .eq('id', sent.data?.id);
        expect(accept.error).toBeNull();
      }
      const step =
        end === 'republished'
          ? admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id)
          : end === 'kept_down'
            ? admin.client
                .from('scammer_reports')
                .update({ status: 'rejected', rejection_reason: 'The dispute was settled.' })
                .eq('id', id)
            : admin.client.from('scammer_reports').delete().eq('id', id);
      expect((await step).error).toBeNull();
      outcomes[end] = id;
    }
    expect(await kinds(sender, 'scammer_reply.republished')).toEqual([
      `/scammer-database/${outcomes.republished}/reply`,
    ]);
    expect(await kinds(sender, 'scammer_reply.kept_down')).toEqual([
      `/scammer-database/${outcomes.kept_down}/reply`,
    ]);
    expect(await kinds(sender, 'scammer_reply.report_deleted')).toEqual(['/scammer-database']);
    const mails = await server.db.query<{ subject: string }>(
      `select subject from private.mail_queue where to_email = $1 and type = 'scammer_reply_decision'`,
      [sender.email],
    );
    expect(mails.rows.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        'The report you asked us to take down is published again',
        'The report you asked us to take down stays down',
        'A report you wrote about was deleted',
      ]),
    );
  });
});

describe('corrections are visible (issue 32 part 4, decisions 202–203)', () => {
  const updates = async (user: SignedInUser, id: string) =>
    (
      await user.client.from('scammer_report_updates').select('kind').eq('report_id', id).order('changed_at')
    ).data?.map((u) => u.kind);

  it('a change to a published report’s summary, masking or evidence is recorded for readers', async () => {
    const id = await submit();
    const file = await attach(id, pngBytes(), 'image/png', 'png');
    expect(file.error).toBeNull();
    // Before publication, review is not a correction.
    await admin.client
      .from('scammer_reports')
      .update({ status: 'under_review', redacted_fields: ['location'] })
      .eq('id', id);
    await publish(id);
    expect(await updates(subscriber, id)).toEqual([]);

    const steps = [
      admin.client
        .from('scammer_reports')
        .update({ public_summary: 'A member reports an order never sent.' })
        .eq('id', id),
      admin.client.from('scammer_reports').update({ redacted_fields: [] }).eq('id', id),
      admin.client
        .from('scammer_report_evidence')
        .update({ approved_at: new Date().toISOString() })
        .eq('report_id', id),
      // A change that readers do not see is not one.
      admin.client.from('scammer_reports').update({ claimed_by: null }).eq('id', id),
    ];
    for (const step of steps) expect((await step).error).toBeNull();
    expect(await updates(subscriber, id)).toEqual(['summary', 'masking', 'evidence']);
    expect(await updates(lapsed, id)).toEqual([]);
    const direct = await subscriber.client.from('scammer_report_changes').select('*');
    expect(direct.error).not.toBeNull();
  });

  it('a withdrawal leaves a dated notice; watchers are told once and never alerted again', async () => {
    const name = `Withdrawn Person ${Math.random().toString(36).slice(2, 8)}`;
    const watch = await subscriber.client.from('scammer_watches').insert({ kind: 'name', value: name });
    expect(watch.error).toBeNull();
    const id = await submit({ scammer_name: name });
    await publish(id);
    const notice = () =>
      subscriber.client.from('withdrawn_scammer_reports').select('id, withdrawn_at').eq('id', id);
    expect((await notice()).data).toEqual([]);

    for (let round = 0; round < 2; round += 1) {
      expect(
        (await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id)).error,
      ).toBeNull();
      const shown = await notice();
      expect(shown.data).toHaveLength(1);
      expect(Date.parse(shown.data?.[0]?.withdrawn_at)).not.toBeNaN();
      expect((await lapsed.client.from('withdrawn_scammer_reports').select('id').eq('id', id)).data).toEqual(
        [],
      );
      expect(
        (await admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id)).error,
      ).toBeNull();
      expect((await notice()).data).toEqual([]);
    }
    const forged = await admin.client.from('scammer_reports').update({ withdrawn_at: null }).eq('id', id);
    expect(forged.error).toBeNull();
    const stamped = await service.from('scammer_reports').select('withdrawn_at').eq('id', id).single();
    expect(stamped.data?.withdrawn_at).not.toBeNull();

    const link = `/scammer-database/${id}`;
    const told = async (kind: string) =>
      (
        await server.db.query<{ n: number }>(
          'select count(*)::int as n from public.notifications where user_id = $1 and kind = $2 and link = $3',
          [subscriber.id, kind, link],
        )
      ).rows[0]?.n;
    expect(await told('scammer_watch.match')).toBe(1);
    expect(await told('scammer_watch.withdrawn')).toBe(1);
  });

  it('a published report deleted outright leaves the same notice, and its watchers are told once (decision 239)', async () => {
    const name = `Deleted Person ${Math.random().toString(36).slice(2, 8)}`;
    const watch = await subscriber.client.from('scammer_watches').insert({ kind: 'name', value: name });
    expect(watch.error).toBeNull();
    const id = await submit({ scammer_name: name });
    await publish(id);
    const before = Date.now();
    expect((await admin.client.from('scammer_reports').delete().eq('id', id)).error).toBeNull();

    const shown = await subscriber.client
      .from('withdrawn_scammer_reports')
      .select('id, withdrawn_at')
      .eq('id', id);
    expect(shown.data).toHaveLength(1);
    expect(Date.parse(shown.data?.[0]?.withdrawn_at)).toBeGreaterThanOrEqual(before - 60_000);
    // The notice is for readers only, and keeps nothing of the report but its id, brand and date.
    expect((await lapsed.client.from('withdrawn_scammer_reports').select('id').eq('id', id)).data).toEqual(
      [],
    );
    const kept = await server.db.query('select * from private.scammer_report_removals where report_id = $1', [
      id,
    ]);
    expect(Object.keys(kept.rows[0] ?? {}).sort()).toEqual(['brand_id', 'removed_at', 'report_id']);

    const link = `/scammer-database/${id}`;
    const told = await server.db.query<{ kind: string }>(
      'select kind from public.notifications where user_id = $1 and link = $2 order by created_at',
      [subscriber.id, link],
    );
    expect(told.rows.map((n) => n.kind)).toEqual(['scammer_watch.match', 'scammer_watch.withdrawn']);

    // Withdrawn first, then deleted: the notice keeps the withdrawal's date and nobody is told twice.
    const second = await submit({ scammer_name: name });
    await publish(second);
    await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', second);
    const withdrawn = await service.from('scammer_reports').select('withdrawn_at').eq('id', second).single();
    expect((await admin.client.from('scammer_reports').delete().eq('id', second)).error).toBeNull();
    const notice = await subscriber.client
      .from('withdrawn_scammer_reports')
      .select('withdrawn_at')
      .eq('id', second);
    expect(Date.parse(notice.data?.[0]?.withdrawn_at)).toBe(Date.parse(withdrawn.data?.withdrawn_at));
    const secondTold = await server.db.query<{ n: number }>(
      `select count(*)::int as n from public.notifications where user_id = $1 and link = $2 and kind = 'scammer_watch.withdrawn'`,
      [subscriber.id, `/scammer-database/${second}`],
    );
    expect(secondTold.rows[0]?.n).toBe(1);

    // A report never published leaves nothing.
    const unpublished = await submit({ scammer_name: name });
    expect((await admin.client.from('scammer_reports').delete().eq('id', unpublished)).error).toBeNull();
    const none = await server.db.query('select 1 from private.scammer_report_removals where report_id = $1', [
      unpublished,
    ]);
    expect(none.rows).toEqual([]);
  });
});
