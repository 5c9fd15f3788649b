import { describe, expect, it } from 'vitest';
import { attachment, parseRange } from './send-object.ts';

describe('parseRange', () => {
  it.each([
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=2-5', 10, { start: 2, end: 5 }],
    ['bytes=2-', 10, { start: 2, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=5-500', 10, { start: 5, end: 9 }],
  ])('%s of %i bytes is %j', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range);
  });

  it.each([['bytes=10-'], ['bytes=10-20'], ['bytes=-0']])('%s of 10 bytes is not satisfiable', (header) => {
    expect(parseRange(header, 10)).toBeNull();
  });

  it.each([['bytes=0-1,3-4'], ['items=0-1'], ['bytes=5-2'], ['bytes=-'], ['bytes=a-b'], ['']])(
    '%j is ignored (the whole object is sent)',
    (header) => {
      expect(parseRange(header, 10)).toBeUndefined();
    },
  );

  it('never satisfies a range of an empty object', () => {
    expect(parseRange('bytes=0-', 0)).toBeNull();
    expect(parseRange('bytes=-1', 0)).toBeNull();
  });
});

describe('attachment', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachment('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachment('résumé "final".pdf')).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
  });

  it('cannot inject header syntax', () => {
    const header = attachment('a\r\nSet-Cookie: x=1; b\\";.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.split('"').length).toBe(3);
  });
});
