import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, checkAvatarFile, inspectAvatarFile, sniffImageFormat } from './image-file.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00');
const WEBP = new TextEncoder().encode('RIFF\x10\x00\x00\x00WEBPVP8 ');
const TEXT = new TextEncoder().encode('hello, this is text');

describe('sniffImageFormat', () => {
  it('recognises the four image formats by their leading bytes', () => {
    expect(sniffImageFormat(PNG)).toBe('png');
    expect(sniffImageFormat(JPEG)).toBe('jpeg');
    expect(sniffImageFormat(GIF)).toBe('gif');
    expect(sniffImageFormat(new TextEncoder().encode('GIF87a'))).toBe('gif');
    expect(sniffImageFormat(WEBP)).toBe('webp');
  });

  it('refuses anything else, including truncated signatures', () => {
    expect(sniffImageFormat(TEXT)).toBeNull();
    expect(sniffImageFormat(new Uint8Array())).toBeNull();
    expect(sniffImageFormat(PNG.slice(0, 5))).toBeNull();
    expect(sniffImageFormat(new TextEncoder().encode('RIFF\x10\x00\x00\x00WAVE'))).toBeNull();
    expect(sniffImageFormat(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
  });
});

describe('checkAvatarFile', () => {
  it('accepts an image within 5 MB', () => {
    expect(checkAvatarFile({ type: 'image/png', size: 1000 }, PNG)).toEqual({ ok: true, format: 'png' });
    expect(checkAvatarFile({ type: 'image/jpeg', size: AVATAR_MAX_BYTES }, JPEG)).toEqual({
      ok: true,
      format: 'jpeg',
    });
  });

  it('refuses a type that is not image/* with the spec text', () => {
    expect(checkAvatarFile({ type: 'text/plain', size: 10 }, PNG)).toEqual({
      ok: false,
      title: 'Invalid file type',
      description: 'Please select an image file.',
    });
    expect(checkAvatarFile({ type: '', size: 10 }, PNG).ok).toBe(false);
  });

  it('refuses a file over 5*1024*1024 bytes with the spec text', () => {
    expect(checkAvatarFile({ type: 'image/png', size: AVATAR_MAX_BYTES + 1 }, PNG)).toEqual({
      ok: false,
      title: 'File too large',
      description: 'Please select an image smaller than 5MB.',
    });
  });

  it('refuses a text file renamed .png (declared image/png) as an invalid type', () => {
    expect(checkAvatarFile({ type: 'image/png', size: TEXT.length }, TEXT)).toEqual({
      ok: false,
      title: 'Invalid file type',
      description: 'Please select an image file.',
    });
  });
});

describe('inspectAvatarFile', () => {
  it('reads the first bytes of a File', async () => {
    expect(await inspectAvatarFile(new File([PNG], 'a.png', { type: 'image/png' }))).toEqual({
      ok: true,
      format: 'png',
    });
    const renamed = await inspectAvatarFile(new File([TEXT], 'notes.png', { type: 'image/png' }));
    expect(renamed.ok).toBe(false);
  });

  it('checks type and size before reading', async () => {
    const big = new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'big.png', { type: 'image/png' });
    expect(await inspectAvatarFile(big)).toMatchObject({ ok: false, title: 'File too large' });
  });
});
