import { supportedMimeTypes } from 'file-type';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import {
  contentMatchesDeclared,
  isAllowedType,
  isImageBucket,
  parseMediaType,
  validateAllowedMimeTypes,
} from './mime.ts';

describe('parseMediaType', () => {
  it('keeps parameters, lower-cases the essence and maps aliases', () => {
    expect(parseMediaType('text/plain;charset=UTF-8')).toEqual({
      value: 'text/plain;charset=UTF-8',
      essence: 'text/plain',
    });
    expect(parseMediaType('Image/JPG')).toEqual({ value: 'image/jpeg', essence: 'image/jpeg' });
    expect(parseMediaType(undefined).essence).toBe('application/octet-stream');
    expect(parseMediaType('  ').essence).toBe('application/octet-stream');
  });

  it.each([
    'nonsense',
    'text/',
    '/plain',
    'text/plain\r\nx-injected: 1',
    `image/${'a'.repeat(300)}`,
    'image/pngé',
  ])('refuses %j with 415', (header) => {
    expect(() => parseMediaType(header)).toThrow(ApiError);
    try {
      parseMediaType(header);
    } catch (error) {
      expect((error as ApiError).status).toBe(415);
    }
  });
});

describe('isAllowedType', () => {
  it('allows anything without a list, the listed types, and wildcards', () => {
    expect(isAllowedType('text/plain', null)).toBe(true);
    expect(isAllowedType('text/plain', [])).toBe(true);
    expect(isAllowedType('image/png', ['image/png', 'image/gif'])).toBe(true);
    expect(isAllowedType('image/webp', ['image/*'])).toBe(true);
    expect(isAllowedType('image/webp', ['IMAGE/WEBP'])).toBe(true);
    expect(isAllowedType('text/html', ['image/*'])).toBe(false);
    expect(isAllowedType('image/svg+xml', ['image/png'])).toBe(false);
  });

  it('recognises image-only buckets', () => {
    expect(isImageBucket(['image/jpeg', 'image/png'])).toBe(true);
    expect(isImageBucket(['image/*'])).toBe(true);
    expect(isImageBucket(['image/png', 'application/pdf'])).toBe(false);
    expect(isImageBucket(null)).toBe(false);
    expect(isImageBucket([])).toBe(false);
  });
});

describe('validateAllowedMimeTypes', () => {
  it('normalises a list and accepts null', () => {
    expect(validateAllowedMimeTypes([' Image/PNG ', 'image/*'])).toEqual(['image/png', 'image/*']);
    expect(validateAllowedMimeTypes(null)).toBeNull();
  });

  it.each([[['png']], [['image/png', 3]], ['image/png'], [Array(101).fill('image/png')], [['*/png']]])(
    'refuses %j',
    (value) => {
      expect(() => validateAllowedMimeTypes(value)).toThrow(ApiError);
    },
  );
});

describe('contentMatchesDeclared', () => {
  const matches = (declared: string, sniffed: string | undefined) =>
    contentMatchesDeclared(declared, sniffed, supportedMimeTypes);

  it('requires types file-type knows to be recognised as themselves', () => {
    expect(matches('image/png', 'image/png')).toBe(true);
    expect(matches('image/png', 'image/apng')).toBe(true);
    expect(matches('image/png', undefined)).toBe(false);
    expect(matches('image/png', 'image/gif')).toBe(false);
    expect(matches('image/jpeg', 'application/x-elf')).toBe(false);
  });

  it('lets text formats through unless their bytes are something else', () => {
    expect(matches('text/plain', undefined)).toBe(true);
    expect(matches('application/json', undefined)).toBe(true);
    expect(matches('application/xml', undefined)).toBe(true);
    expect(matches('text/plain', 'application/zip')).toBe(false);
  });

  it('lets application/octet-stream be anything', () => {
    expect(matches('application/octet-stream', 'image/png')).toBe(true);
    expect(matches('application/octet-stream', undefined)).toBe(true);
  });
});
