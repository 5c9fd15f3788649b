/**
 * Hostile uploads against the real server on both backends: wrong magic bytes, polyglot files,
 * `../`, NUL and other bad names, 300-character names, `.php.png`, oversized bodies (announced,
 * streamed, multipart, compressed), aborted connections mid-upload and racing uploads. Each must end
 * in a clear 4xx (or a clean abort), and leave nothing behind: no row in storage.objects, no blob in
 * the backend, no staging file — checked after every case.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, eventually, GIF, PNG, pngOfSize } from '#tests/support/storage.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

const JPEG_HEAD = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb0043000806060706050807', 'hex');
const JPEG = Buffer.concat([JPEG_HEAD, Buffer.alloc(200, 0x11), Buffer.from('ffd9', 'hex')]);
const WEBP = Buffer.from('524946461a000000574542505650384c0d0000002f00000010071011118888fe0700', 'hex');

/** A PNG with an extra chunk before IEND (valid structure). */
function pngWithChunk(type: string, data: string): Buffer {
  const body = Buffer.from(data, 'latin1');
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, 'latin1');
  body.copy(chunk, 8);
  return Buffer.concat([PNG.subarray(0, PNG.length - 12), chunk, PNG.subarray(PNG.length - 12)]);
}

/** A GIF with a comment extension before its trailer (valid structure). */
function gifWithComment(text: string): Buffer {
  const comment = Buffer.from(text, 'latin1');
  return Buffer.concat([
    GIF.subarray(0, GIF.length - 1),
    Buffer.from([0x21, 0xfe, comment.length]),
    comment,
    Buffer.from([0x00, 0x3b]),
  ]);
}

const ZIP = Buffer.concat([
  Buffer.from('504b0304140000000800', 'hex'),
  Buffer.alloc(30, 0x41),
  Buffer.from('504b0506000000000100010000000000', 'hex'),
]);

/** Each hostile file: what it pretends to be, and why it is refused. */
const HOSTILE_FILES: { name: string; bytes: Buffer; type: string; status: number; message: RegExp }[] = [
  {
    name: 'a text file named .png',
    bytes: Buffer.from('just some text, not an image at all'),
    type: 'image/png',
    status: 415,
    message: /^File content does not match declared type\.$/,
  },
  {
    name: 'a GIF declared as PNG',
    bytes: GIF,
    type: 'image/png',
    status: 415,
    message: /^File content does not match declared type\.$/,
  },
  {
    name: 'an ELF executable declared as JPEG',
    bytes: Buffer.concat([Buffer.from('7f454c46020101000000000000000000', 'hex'), Buffer.alloc(64)]),
    type: 'image/jpeg',
    status: 415,
    message: /does not match declared type/,
  },
  {
    name: 'an SVG with script declared as PNG',
    bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
    type: 'image/png',
    status: 415,
    message: /does not match declared type/,
  },
  {
    name: 'HTML declared as an image type the bucket does not take',
    bytes: Buffer.from('<html><script>alert(1)</script></html>'),
    type: 'text/html',
    status: 415,
    message: /^mime type text\/html is not supported$/,
  },
  {
    name: 'a GIF carrying PHP in a comment (GIF/PHP polyglot)',
    bytes: gifWithComment('<?php system($_GET["c"]); ?>'),
    type: 'image/gif',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a PNG carrying <script> in a text chunk',
    bytes: pngWithChunk('tEXt', 'Comment\u0000<ScRiPt>alert(document.cookie)</script>'),
    type: 'image/png',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a PNG with HTML after IEND',
    bytes: Buffer.concat([PNG, Buffer.from('<html><body onload=alert(1)>')]),
    type: 'image/png',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a PNG with bytes after IEND',
    bytes: Buffer.concat([PNG, Buffer.from('trailing payload')]),
    type: 'image/png',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a JPEG with a ZIP appended (GIFAR-style polyglot)',
    bytes: Buffer.concat([JPEG, ZIP]),
    type: 'image/jpeg',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a GIF/JavaScript polyglot',
    bytes: Buffer.from(
      'GIF89a/*\u0001\u0000\u0001\u0000\u0000\u0000\u0000*/=alert(document.domain);',
      'latin1',
    ),
    type: 'image/gif',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a WebP with data outside its RIFF length',
    bytes: Buffer.concat([WEBP, Buffer.from('EXTRA')]),
    type: 'image/webp',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'a PNG carrying a PDF',
    bytes: pngWithChunk('prVt', '%PDF-1.7 1 0 obj'),
    type: 'image/png',
    status: 415,
    message: /script, markup or archive/,
  },
  {
    name: 'an empty file declared as PNG',
    bytes: Buffer.alloc(0),
    type: 'image/png',
    status: 415,
    message: /does not match declared type/,
  },
];

interface RawResponse {
  status: number;
  body: Record<string, unknown>;
}

describe.each(BACKENDS)('hostile uploads on the %s backend', (backend) => {
  let t: StorageTestServer;
  let service: SupabaseClient;
  let member: SignedInUser;
  let state: { rows: number; blobs: string[] };

  beforeAll(async () => {
    t = await startStorageServer(backend);
    service = adminClient(t.server);
    member = await signedInUser(t.server);
    expect((await service.storage.createBucket('open', { public: false })).error).toBeNull();
    expect(
      (await service.storage.createBucket('small', { public: false, fileSizeLimit: 1024 * 1024 })).error,
    ).toBeNull();
  });
  afterAll(() => t?.close());

  const rowCount = async () =>
    Number((await t.server.db.query<{ n: string }>('select count(*) as n from storage.objects')).rows[0]?.n);

  beforeEach(async () => {
    state = { rows: await rowCount(), blobs: await t.blobs() };
  });

  /** Nothing of a refused upload survives: no row, no blob, no staging file. */
  async function expectNothingLeft(): Promise<void> {
    await eventually(async () => (await t.staging()).length === 0, 'the staging area is empty');
    expect(await rowCount()).toBe(state.rows);
    expect(await t.blobs()).toEqual(state.blobs);
  }

  afterEach(async () => {
    // Every case must leave the server answering normally.
    const health = await fetch(`${t.url}/health`);
    expect(health.status).toBe(200);
  });

  /** A request exactly as given: the path is not normalised (unlike fetch, which resolves `..`). */
  function raw(
    method: string,
    path: string,
    body: Buffer,
    headers: Record<string, string> = {},
  ): Promise<RawResponse> {
    const url = new URL(t.url);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: {
            apikey: t.server.anonKey,
            authorization: `Bearer ${member.token}`,
            'content-length': String(body.length),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  describe('content', () => {
    it.each(HOSTILE_FILES)('refuses $name', async ({ bytes, type, status, message }) => {
      const path = `${member.id}/avatar-${randomUUID().slice(0, 8)}.png`;
      // As multipart (a File from the browser) and as a raw body.
      const asForm = await member.client.storage.from('user-uploads').upload(path, blob(bytes, type));
      expect(asForm.error).toMatchObject({ status, statusCode: String(status) });
      expect(asForm.error?.message).toMatch(message);
      const asBody = await member.client.storage
        .from('user-uploads')
        .upload(path, bytes, { contentType: type });
      expect(asBody.error).toMatchObject({ status });
      await expectNothingLeft();
    });

    it('checks content in buckets without type limits too', async () => {
      const mislabelled = await service.storage.from('open').upload('x.png', Buffer.from('not a png'), {
        contentType: 'image/png',
      });
      expect(mislabelled.error).toMatchObject({ status: 415 });
      await expectNothingLeft();
      // A generic declared type says nothing: the object is stored as what its bytes are (decision 109).
      const zipAsText = await service.storage
        .from('open')
        .upload('x.txt', ZIP, { contentType: 'text/plain' });
      expect(zipAsText.error).toBeNull();
      expect((await service.storage.from('open').info('x.txt')).data).toMatchObject({
        contentType: 'application/zip',
      });
      // Honest labels pass.
      expect(
        (await service.storage.from('open').upload('x.zip', ZIP, { contentType: 'application/zip' })).error,
      ).toBeNull();
      expect(
        (await service.storage.from('open').upload('notes.txt', 'plain text', { contentType: 'text/plain' }))
          .error,
      ).toBeNull();
    });
  });

  describe('names', () => {
    const cases: { name: string; path: (uid: string) => string; message: RegExp }[] = [
      { name: '../ (raw)', path: (uid) => `${uid}/../x.png`, message: /^Invalid key: / },
      { name: '../ (percent-encoded)', path: (uid) => `${uid}/%2e%2e/x.png`, message: /^Invalid key: / },
      { name: 'a leading ../', path: () => '..%2Fx.png', message: /^Invalid key: / },
      { name: './', path: (uid) => `${uid}/./x.png`, message: /^Invalid key: / },
      { name: 'an empty segment', path: (uid) => `${uid}//x.png`, message: /^Invalid key: / },
      { name: 'a backslash', path: (uid) => `${uid}/..%5Cx.png`, message: /^Invalid key: / },
      { name: 'NUL', path: (uid) => `${uid}/x%00.png`, message: /^Invalid filename characters detected\.$/ },
      {
        name: 'a newline',
        path: (uid) => `${uid}/x%0A.png`,
        message: /^Invalid filename characters detected\.$/,
      },
      {
        name: '300 characters',
        path: (uid) => `${uid}/${'a'.repeat(296)}.png`,
        message: /^Filename too long\.$/,
      },
      {
        name: '.php.png',
        path: (uid) => `${uid}/shell.php.png`,
        message: /^Suspicious file extension detected\.$/,
      },
      {
        name: '.png.php',
        path: (uid) => `${uid}/shell.png.php`,
        message: /^Suspicious file extension detected\.$/,
      },
      { name: '.html', path: (uid) => `${uid}/page.html`, message: /^Suspicious file extension detected\.$/ },
      {
        name: '.PHP5 in capitals',
        path: (uid) => `${uid}/x.PHP5`,
        message: /^Suspicious file extension detected\.$/,
      },
      {
        name: 'a double extension',
        path: (uid) => `${uid}/photo.jpg.png`,
        message: /^Double file extensions are not allowed\.$/,
      },
      {
        name: 'markup characters',
        path: (uid) => `${uid}/%3Cimg%20src%3Dx%3E.png`,
        message: /^Invalid key: /,
      },
      { name: 'a quote', path: (uid) => `${uid}/x%22.png`, message: /^Invalid key: / },
      {
        name: 'a right-to-left override',
        path: (uid) => `${uid}/avatar%E2%80%AEgnp.exe`,
        message: /^Invalid key: /,
      },
      { name: 'a query character', path: (uid) => `${uid}/x%3F.png`, message: /^Invalid key: / },
    ];

    it.each(cases)('refuses $name with 400 before reading the body', async ({ path, message }) => {
      const response = await raw('POST', `/storage/v1/object/user-uploads/${path(member.id)}`, PNG, {
        'content-type': 'image/png',
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: '400', error: 'InvalidKey' });
      expect(String(response.body.message)).toMatch(message);
      await expectNothingLeft();
    });

    it('keeps control characters out of the error message', async () => {
      const response = await raw('POST', '/storage/v1/object/open/a%00b%1Bc', Buffer.from('x'), {
        'content-type': 'text/plain',
        authorization: `Bearer ${t.server.serviceRoleKey}`,
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).not.toMatch(/\\u0000|\\u001b/);
    });

    it('applies the same rules to move and copy targets', async () => {
      const source = `${member.id}/avatar-1.png`;
      expect(
        (await member.client.storage.from('user-uploads').upload(source, blob(PNG, 'image/png'))).error,
      ).toBeNull();
      state = { rows: await rowCount(), blobs: await t.blobs() };
      const uploads = member.client.storage.from('user-uploads');
      expect((await uploads.move(source, `${member.id}/x.php.png`)).error).toMatchObject({ status: 400 });
      expect((await uploads.copy(source, `${member.id}/x.php.png`)).error).toMatchObject({ status: 400 });
      expect((await uploads.copy(source, `${member.id}/a\u0000.png`)).error).toMatchObject({ status: 400 });
      await expectNothingLeft();
    });

    it('allows names in other scripts, spaces and safe punctuation', async () => {
      const name = "folder/Ünïcødé photo (1) – 写真 & d'or.txt";
      expect(
        (await service.storage.from('open').upload(name, 'ok', { contentType: 'text/plain' })).error,
      ).toBeNull();
      expect(await (await service.storage.from('open').download(name)).data?.text()).toBe('ok');
    });
  });

  describe('sizes', () => {
    it('refuses an announced Content-Length over the limit at once', async () => {
      const response = await raw(
        'POST',
        '/storage/v1/object/small/announced.bin',
        Buffer.alloc(1024 * 1024 + 1),
        {
          'content-type': 'application/octet-stream',
          authorization: `Bearer ${t.server.serviceRoleKey}`,
        },
      );
      expect(response).toEqual({
        status: 413,
        body: {
          statusCode: '413',
          error: 'Payload too large',
          message: 'The object exceeded the maximum allowed size',
        },
      });
      await expectNothingLeft();
    });

    it('stops a streamed body as soon as it passes the limit', async () => {
      let sent = 0;
      const endless = new Readable({
        read() {
          sent += 64 * 1024;
          this.push(sent > 64 * 1024 * 1024 ? null : Buffer.alloc(64 * 1024, 1));
        },
      });
      const { error } = await service.storage
        .from('small')
        .upload('streamed.bin', endless, { contentType: 'application/octet-stream' });
      expect(error).toMatchObject({ status: 413, message: 'The object exceeded the maximum allowed size' });
      await expectNothingLeft();
    });

    it('refuses an oversized multipart file', async () => {
      const { error } = await service.storage
        .from('small')
        .upload('form.bin', blob(Buffer.alloc(1024 * 1024 + 10), 'application/octet-stream'));
      expect(error).toMatchObject({ status: 413 });
      await expectNothingLeft();
    });

    it('counts decompressed bytes: a gzip bomb is stopped at the limit', async () => {
      const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(64 * 1024);
      const response = await raw('POST', '/storage/v1/object/small/bomb.bin', bomb, {
        'content-type': 'application/octet-stream',
        'content-encoding': 'gzip',
        authorization: `Bearer ${t.server.serviceRoleKey}`,
      });
      expect(response.status).toBe(413);
      await expectNothingLeft();
    });

    it('refuses oversized user metadata', async () => {
      const { error } = await service.storage
        .from('open')
        .upload('meta.txt', blob(Buffer.from('x'), 'text/plain'), {
          metadata: { big: 'x'.repeat(70 * 1024) },
        });
      expect(error).toMatchObject({
        status: 413,
        message: 'The user_metadata exceeded the maximum allowed size',
      });
      const badHeader = await raw('POST', '/storage/v1/object/open/meta.txt', Buffer.from('x'), {
        'content-type': 'text/plain',
        'x-metadata': Buffer.from('[1,2,3]').toString('base64'),
        authorization: `Bearer ${t.server.serviceRoleKey}`,
      });
      expect(badHeader.status).toBe(400);
      await expectNothingLeft();
    });
  });

  describe('aborted connections', () => {
    /** Sends `sent` of an announced `announced` bytes, then drops the connection. */
    function abortAfter(path: string, announced: number, sent: number, headers: Record<string, string>) {
      const url = new URL(t.url);
      return new Promise<void>((resolve) => {
        const request = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path,
          headers: {
            apikey: t.server.anonKey,
            authorization: `Bearer ${t.server.serviceRoleKey}`,
            'content-length': String(announced),
            ...headers,
          },
        });
        request.on('error', () => resolve());
        request.on('response', (response) => {
          response.resume();
          resolve();
        });
        let written = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (written < sent) {
            written += chunk.length;
            if (!request.write(chunk)) return request.once('drain', pump);
          }
          // Give the server a moment to take the bytes in, then vanish mid-body.
          setTimeout(() => {
            request.destroy();
            resolve();
          }, 100);
        };
        pump();
      });
    }

    it('leaves nothing behind when the client drops a raw upload', async () => {
      await abortAfter('/storage/v1/object/open/dropped.bin', 20 * 1024 * 1024, 2 * 1024 * 1024, {
        'content-type': 'application/octet-stream',
      });
      await expectNothingLeft();
      expect((await service.storage.from('open').exists('dropped.bin')).data).toBe(false);
    });

    it('leaves nothing behind when the client drops a large upload (past one S3 part)', async () => {
      await abortAfter('/storage/v1/object/open/dropped-large.bin', 30 * 1024 * 1024, 7 * 1024 * 1024, {
        'content-type': 'application/octet-stream',
      });
      await expectNothingLeft();
    });

    it('leaves nothing behind when the client drops a multipart upload', async () => {
      const boundary = 'x-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="a.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      const url = new URL(t.url);
      await new Promise<void>((resolve) => {
        const request = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/storage/v1/object/open/dropped-form.bin',
          headers: {
            apikey: t.server.anonKey,
            authorization: `Bearer ${t.server.serviceRoleKey}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(10 * 1024 * 1024),
          },
        });
        request.on('error', () => resolve());
        request.write(head);
        request.write(Buffer.alloc(1024 * 1024, 0x62), () => {
          setTimeout(() => {
            request.destroy();
            resolve();
          }, 100);
        });
      });
      await expectNothingLeft();
    });

    it('still takes uploads afterwards', async () => {
      const { error } = await service.storage
        .from('open')
        .upload('after.txt', 'fine', { contentType: 'text/plain' });
      expect(error).toBeNull();
    });
  });

  describe('races', () => {
    it('lets exactly one of several uploads to the same new name win', async () => {
      const name = `${member.id}/avatar-race.png`;
      const results = await Promise.all(
        [1, 2, 3, 4].map((seed) =>
          member.client.storage
            .from('user-uploads')
            .upload(name, blob(pngOfSize(200_000, seed), 'image/png')),
        ),
      );
      expect(results.filter((result) => result.error === null)).toHaveLength(1);
      for (const result of results.filter((r) => r.error !== null))
        expect(result.error).toMatchObject({ status: 409 });
      await eventually(async () => (await t.staging()).length === 0, 'the staging area is empty');
      expect(await rowCount()).toBe(state.rows + 1);
      expect((await t.blobs()).length).toBe(state.blobs.length + 1);
    });

    it('keeps one blob per object when uploads replace each other concurrently', async () => {
      const name = 'replaced.bin';
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((seed) =>
          service.storage.from('open').upload(name, Buffer.alloc(100_000, seed), {
            contentType: 'application/octet-stream',
            upsert: true,
          }),
        ),
      );
      expect(results.every((result) => result.error === null)).toBe(true);
      const { rows } = await t.server.db.query<{ version: string }>(
        `select version from storage.objects where bucket_id = 'open' and name = $1`,
        [name],
      );
      expect(rows).toHaveLength(1);
      const blobs = await t.blobs();
      expect(blobs.length).toBe(state.blobs.length + 1);
      expect(blobs).toContain(rows[0]?.version);
    });
  });
});
