import { createHash } from 'node:crypto';
import { getDefaultHighWaterMark, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.ts';
import { type InspectOptions, UploadInspector } from './inspect.ts';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d1a5f90000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from(
  '47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b',
  'hex',
);

const image = (declared: string, limit = 1024 * 1024): InspectOptions => ({
  limit,
  declared,
  allowed: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
});

/** Streams `bytes` in chunks of `chunk` through an inspector; resolves to what came out. */
async function inspect(bytes: Buffer, options: InspectOptions, chunk = 7) {
  const inspector = new UploadInspector(options);
  const out: Buffer[] = [];
  const chunks = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  await pipeline(
    Readable.from(chunks),
    inspector,
    new Writable({
      write(data: Buffer, _encoding, callback) {
        out.push(data);
        callback();
      },
    }),
  );
  return { inspection: inspector.inspection(), output: Buffer.concat(out) };
}

async function refusal(bytes: Buffer, options: InspectOptions, chunk = 7) {
  try {
    await inspect(bytes, options, chunk);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  return undefined;
}

describe('UploadInspector', () => {
  it('passes bytes through unchanged and reports size, MD5 and the recognised type', async () => {
    const { inspection, output } = await inspect(PNG, image('image/png'));
    expect(output.equals(PNG)).toBe(true);
    expect(inspection).toEqual({
      size: PNG.length,
      md5: createHash('md5').update(PNG).digest('hex'),
      sniffed: 'image/png',
    });
  });

  it('fails with 413 as soon as the limit is passed, not at the end', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1000;
        this.push(Buffer.alloc(1000, 0x80));
      },
    });
    const inspector = new UploadInspector({
      limit: 10_000,
      declared: 'application/octet-stream',
      allowed: null,
    });
    await expect(
      pipeline(endless, inspector, new Writable({ write: (_c, _e, cb) => cb() })),
    ).rejects.toMatchObject({
      status: 413,
      message: 'The object exceeded the maximum allowed size',
    });
    // Streams read ahead up to their high-water mark (16 KiB on Node 20, 64 KiB from Node 22), so
    // "as soon as" means within a few buffers past the limit, never the endless rest.
    expect(produced).toBeLessThan(10_000 + 3 * getDefaultHighWaterMark(false));
  });

  it('accepts exactly the limit', async () => {
    const { inspection } = await inspect(Buffer.alloc(5000, 0x80), {
      limit: 5000,
      declared: 'application/octet-stream',
      allowed: null,
    });
    expect(inspection.size).toBe(5000);
  });

  it('refuses bytes that are not what was declared', async () => {
    expect(await refusal(Buffer.from('plain text, honestly'), image('image/png'))).toEqual({
      status: 415,
      message: 'File content does not match declared type.',
    });
    expect(await refusal(GIF, image('image/png'))).toMatchObject({ status: 415 });
    expect(await refusal(Buffer.alloc(0), image('image/png'))).toMatchObject({ status: 415 });
  });

  it('refuses a recognised type the bucket does not take, even if declared as octet-stream', async () => {
    expect(
      await refusal(PNG, {
        limit: 1e6,
        declared: 'application/octet-stream',
        allowed: ['text/*'],
      }),
    ).toEqual({ status: 415, message: 'mime type image/png is not supported' });
  });

  it.each([1, 3, 7, 64, 4096])(
    'finds markers across chunk boundaries (chunks of %i bytes)',
    async (chunk) => {
      const withScript = Buffer.concat([
        GIF.subarray(0, GIF.length - 1),
        Buffer.from([0x21, 0xfe, 0x10]),
        Buffer.from('<sCrIpT>x</script', 'latin1').subarray(0, 16),
        Buffer.from([0x00, 0x3b]),
      ]);
      expect(await refusal(withScript, image('image/gif'), chunk)).toMatchObject({ status: 415 });
    },
  );

  it('checks that PNG, GIF and WebP end where their format ends', async () => {
    expect(await refusal(Buffer.concat([PNG, Buffer.from([0])]), image('image/png'))).toMatchObject({
      status: 415,
    });
    expect(await refusal(Buffer.concat([GIF, Buffer.from('x')]), image('image/gif'))).toMatchObject({
      status: 415,
    });
    const webp = Buffer.from('524946461a000000574542505650384c0d0000002f00000010071011118888fe0700', 'hex');
    expect((await inspect(webp, image('image/webp'))).inspection.sniffed).toBe('image/webp');
    expect(await refusal(Buffer.concat([webp, Buffer.from('xx')]), image('image/webp'))).toMatchObject({
      status: 415,
    });
  });

  it('does not scan what is not a raster image', async () => {
    const html = Buffer.from('<html><script>fine for a text bucket</script></html>');
    const { inspection } = await inspect(html, {
      limit: 1e6,
      declared: 'text/html',
      allowed: null,
    });
    expect(inspection.sniffed).toBeUndefined();
  });

  describe('generic declared types (decision 109)', () => {
    it.each(['text/plain', 'application/octet-stream'])(
      'stores %s bytes as what they are',
      async (declared) => {
        const { inspection } = await inspect(PNG, image(declared));
        expect(inspection).toMatchObject({ sniffed: 'image/png', stored: 'image/png' });
        const text = await inspect(Buffer.from('just words'), { limit: 1e6, declared, allowed: null });
        expect(text.inspection).toMatchObject({ sniffed: undefined, stored: undefined });
      },
    );

    it.each([1, 7, 4096])('still scans what turns out to be an image (chunks of %i bytes)', async (chunk) => {
      const withScript = Buffer.concat([
        GIF.subarray(0, GIF.length - 1),
        Buffer.from([0x21, 0xfe, 0x10]),
        Buffer.from('<script>x</script', 'latin1').subarray(0, 16),
        Buffer.from([0x00, 0x3b]),
      ]);
      expect(await refusal(withScript, image('text/plain'), chunk)).toMatchObject({ status: 415 });
      expect(await refusal(Buffer.concat([PNG, Buffer.from([0])]), image('text/plain'), chunk)).toMatchObject(
        {
          status: 415,
        },
      );
    });

    it('keeps the bucket rules: unrecognised bytes keep the generic type, which an image bucket refuses', async () => {
      expect(await refusal(Buffer.from('<svg onload=alert(1)>'), image('text/plain'))).toEqual({
        status: 415,
        message: 'mime type text/plain is not supported',
      });
      expect(await refusal(PNG, { limit: 1e6, declared: 'text/plain', allowed: ['text/*'] })).toEqual({
        status: 415,
        message: 'mime type image/png is not supported',
      });
    });
  });
});
