import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { bucketIdOrNotFound, validateBucketId, validateImageFileName, validateObjectName } from './names.ts';

function refusal(fn: () => unknown): { status: number; code: string; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

describe('validateObjectName', () => {
  it.each([
    'avatar.png',
    '0a000000-0000-4000-8000-000000000001/avatar-1763700000000.png',
    'admin-posts/3f2c.jpg',
    "folder/Ünïcødé photo (1) – 写真 & d'or.txt",
    'emoji 😀.png',
    'a/b/c/d/e.txt',
    `${'a'.repeat(255)}/x`,
  ])('accepts %j', (name) => {
    expect(validateObjectName(name)).toBe(name);
  });

  it.each([
    ['', 'InvalidKey'],
    ['../x.png', 'InvalidKey'],
    ['a/../x.png', 'InvalidKey'],
    ['a/..', 'InvalidKey'],
    ['./x', 'InvalidKey'],
    ['/x.png', 'InvalidKey'],
    ['a//x.png', 'InvalidKey'],
    ['a/', 'InvalidKey'],
    ['a\\b', 'InvalidKey'],
    ['a?b', 'InvalidKey'],
    ['a#b', 'InvalidKey'],
    ['100%', 'InvalidKey'],
    ['<img src=x>', 'InvalidKey'],
    ['avatar\u202Egnp.exe', 'InvalidKey'],
    ['a'.repeat(1025), 'InvalidKey'],
  ])('refuses %j as %s', (name, code) => {
    expect(refusal(() => validateObjectName(name))).toMatchObject({ status: 400, code });
  });

  it('refuses control characters, NUL first, without echoing them', () => {
    for (const name of ['a\u0000.png', 'a\n.png', 'a\u001b.png', 'a\u0085.png']) {
      expect(refusal(() => validateObjectName(name))).toEqual({
        status: 400,
        code: 'InvalidKey',
        message: 'Invalid filename characters detected.',
      });
    }
  });

  it('refuses a segment over 255 characters (product §image-rules "Filename too long.")', () => {
    expect(refusal(() => validateObjectName(`u/${'a'.repeat(256)}`))?.message).toBe('Filename too long.');
    expect(refusal(() => validateObjectName(`${'é'.repeat(256)}/x`))?.message).toBe('Filename too long.');
  });

  it('refuses what is not a string', () => {
    expect(refusal(() => validateObjectName(undefined))).toMatchObject({ status: 400 });
    expect(refusal(() => validateObjectName(42))).toMatchObject({ status: 400 });
  });
});

describe('validateImageFileName', () => {
  it.each(['u/avatar-1763700000000.png', 'admin-posts/3f2c.jpg', 'noextension', 'dir.with.dots/x.webp'])(
    'accepts %j',
    (name) => {
      expect(() => validateImageFileName(name)).not.toThrow();
    },
  );

  it.each([
    ['u/shell.php.png', 'Suspicious file extension detected.'],
    ['u/shell.png.php', 'Suspicious file extension detected.'],
    ['u/x.PHP', 'Suspicious file extension detected.'],
    ['u/x.html', 'Suspicious file extension detected.'],
    ['u/x.svg', 'Suspicious file extension detected.'],
    ['u/x.exe', 'Suspicious file extension detected.'],
    ['u/run.sh', 'Suspicious file extension detected.'],
    ['u/photo.jpg.png', 'Double file extensions are not allowed.'],
    ['u/.hidden.png', 'Double file extensions are not allowed.'],
  ])('refuses %j: %s', (name, message) => {
    expect(refusal(() => validateImageFileName(name))).toEqual({ status: 400, code: 'InvalidKey', message });
  });
});

describe('bucket ids', () => {
  it.each(['avatars', 'user-uploads', 'a', 'x'.repeat(100), 'My Bucket (1)'])('accepts %j', (id) => {
    expect(validateBucketId(id)).toBe(id);
  });

  it.each(['', 'a/b', 'a\\b', 'x'.repeat(101), ' lead', 'trail ', 'é', 'public', 'sign', 'authenticated'])(
    'refuses %j',
    (id) => {
      expect(refusal(() => validateBucketId(id))).toEqual({
        status: 400,
        code: 'Invalid Input',
        message: 'Bucket name invalid',
      });
    },
  );

  it('treats a malformed id in a URL as a bucket that does not exist', () => {
    expect(refusal(() => bucketIdOrNotFound('a/b'))).toMatchObject({
      status: 404,
      message: 'Bucket not found',
    });
    expect(bucketIdOrNotFound('avatars')).toBe('avatars');
  });
});
