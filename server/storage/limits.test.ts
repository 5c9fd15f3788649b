import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { effectiveSizeLimit, parseFileSizeLimit } from './limits.ts';

const SERVER = 50 * 1024 * 1024;

describe('parseFileSizeLimit', () => {
  it.each([
    [1024, 1024],
    ['20mb', 20_000_000],
    ['1.5MB', 1_500_000],
    ['30KB', 30_000],
    ['3B', 3],
    ['0.05 GB', 50_000_000],
    [null, null],
    [undefined, null],
    [0, null],
  ])('reads %j as %j', (value, bytes) => {
    expect(parseFileSizeLimit(value, SERVER)).toBe(bytes);
  });

  it.each([['20 parsecs'], ['mb'], ['-1mb'], [-5], [1.5], [Number.NaN], [{}], [true], ['1e3kb']])(
    'refuses %j with Supabase’s hint',
    (value) => {
      expect(() => parseFileSizeLimit(value, SERVER)).toThrow(
        'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
      );
    },
  );

  it('refuses a bucket limit above the server’s', () => {
    expect(() => parseFileSizeLimit('1GB', SERVER)).toThrow(ApiError);
    expect(() => parseFileSizeLimit(SERVER + 1, SERVER)).toThrow(/may not exceed/);
  });
});

describe('effectiveSizeLimit', () => {
  it('is the bucket’s limit, never above the server’s', () => {
    expect(effectiveSizeLimit(5242880, SERVER)).toBe(5242880);
    expect(effectiveSizeLimit('5242880', SERVER)).toBe(5242880);
    expect(effectiveSizeLimit(null, SERVER)).toBe(SERVER);
    expect(effectiveSizeLimit(SERVER * 2, SERVER)).toBe(SERVER);
  });
});
