import { describe, expect, it } from 'vitest';
import { sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it('removes < > \' " & and backtick', () => {
    expect(sanitizeText(`<b>Tom's "deal" & \`more\`</b>`)).toBe('bToms deal  more/b');
  });

  it('removes the javascript:, data: and vbscript: prefixes in any case', () => {
    expect(sanitizeText('javascript:alert(1)')).toBe('alert(1)');
    expect(sanitizeText('see DATA:text/html,x and VbScript:msgbox')).toBe('see text/html,x and msgbox');
  });

  it('does not let removed pieces reassemble a prefix', () => {
    expect(sanitizeText('javajavascript:script:alert(1)')).toBe('alert(1)');
    expect(sanitizeText('java<script:x')).toBe('x');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Sold 2 oz, never shipped. Paid $450 via Zelle (555) 123-4567; Denver, CO.';
    expect(sanitizeText(text)).toBe(text);
  });
});
