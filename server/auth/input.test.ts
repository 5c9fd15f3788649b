import { describe, expect, it } from 'vitest';
import { Body, checkJsonValue, isCleanText, normalizeEmail, queryString } from './input.ts';

describe('Body (GoTrue-style reading)', () => {
  it('reads strings, treating absent and null as empty', () => {
    const body = new Body({ email: 'a@b.co', phone: null });
    expect(body.string('email')).toBe('a@b.co');
    expect(body.string('phone')).toBe('');
    expect(body.string('missing')).toBe('');
  });

  it.each([[{ email: 1 }], [{ email: ['a'] }], [{ email: {} }], [{ email: true }]])(
    'answers bad_json for a wrong type: %j',
    (raw) => {
      expect(() => new Body(raw).string('email')).toThrow(
        expect.objectContaining({ code: 'bad_json', status: 400 }),
      );
    },
  );

  it.each([[[]], ['text'], [42]])('answers bad_json when the body is not an object: %j', (raw) => {
    expect(() => new Body(raw)).toThrow(expect.objectContaining({ code: 'bad_json' }));
  });

  it('treats a missing body as empty', () => {
    expect(new Body(undefined).string('x')).toBe('');
  });

  it('refuses NUL, unpaired surrogates and over-long text', () => {
    for (const value of ['a\u0000b', '\ud800', 'x\udc00']) {
      expect(() => new Body({ v: value }).string('v')).toThrow(
        expect.objectContaining({ code: 'validation_failed' }),
      );
    }
    expect(() => new Body({ v: 'x'.repeat(11) }).string('v', 10)).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(new Body({ v: '😀'.repeat(10) }).string('v', 10)).toBe('😀'.repeat(10));
  });

  it('reads booleans and objects strictly', () => {
    expect(new Body({ b: false }).bool('b')).toBe(false);
    expect(() => new Body({ b: 'true' }).bool('b')).toThrow(expect.objectContaining({ code: 'bad_json' }));
    expect(new Body({ o: { a: 1 } }).object('o')).toEqual({ a: 1 });
    expect(() => new Body({ o: [1] }).object('o')).toThrow(expect.objectContaining({ code: 'bad_json' }));
  });
});

describe('checkJsonValue', () => {
  it('limits size and depth and refuses NUL in keys and values', () => {
    expect(() => checkJsonValue('data', { a: 'x'.repeat(5000) }, 4096)).toThrow(/too large/);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 20; i += 1) {
      deep.next = {};
      deep = deep.next as Record<string, unknown>;
    }
    expect(() => checkJsonValue('data', root, 4096)).toThrow(/nested too deeply/);
    expect(() => checkJsonValue('data', { 'a\u0000': 1 }, 4096)).toThrow(/NUL/);
    expect(() => checkJsonValue('data', { a: ['\ud800'] }, 4096)).toThrow(/NUL/);
    expect(() => checkJsonValue('data', { full_name: 'Jane', tags: [1, 'two', null] }, 4096)).not.toThrow();
  });
});

describe('normalizeEmail', () => {
  it.each([
    ['Jane.Doe+tag@Example.COM', 'jane.doe+tag@example.com'],
    ['  padded@example.com ', 'padded@example.com'],
    ["o'brien@example.ie", "o'brien@example.ie"],
  ])('%s → %s', (input, output) => {
    expect(normalizeEmail(input)).toBe(output);
  });

  it.each([
    'plain',
    'a@b',
    'a@@b.com',
    'a b@example.com',
    '<a@example.com>',
    'a@example.com\r\nbcc: x@y.z',
    'a@-example.com',
    `${'x'.repeat(65)}@example.com`,
    `a@${'x'.repeat(250)}.com`,
    '"quoted"@example.com',
    'a@example..com',
  ])('refuses %j', (input) => {
    expect(() => normalizeEmail(input)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('text helpers', () => {
  it('isCleanText', () => {
    expect(isCleanText('héllo 😀')).toBe(true);
    expect(isCleanText('a\u0000')).toBe(false);
    expect(isCleanText('\udfff')).toBe(false);
  });

  it('queryString takes the first of repeated parameters and ignores non-strings', () => {
    expect(queryString({ a: ['x', 'y'] }, 'a')).toBe('x');
    expect(queryString({ a: 1 }, 'a')).toBe('');
    expect(queryString(undefined, 'a')).toBe('');
  });
});
