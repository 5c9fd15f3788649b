import { describe, expect, it } from 'vitest';
import {
  FIELD_TEXTS,
  fieldProblem,
  formProblems,
  hasProblems,
  hasScriptMarkup,
  isAlphanumeric,
  isEmail,
  isHttpUrl,
  isPhone,
  ratingProblem,
} from './field-rules.ts';

describe('generic field rules (product §field-rules)', () => {
  it('"{field} is required." for empty or blank required fields; optional empty fields pass', () => {
    expect(fieldProblem('', { label: 'Full Name', required: true })).toBe('Full Name is required.');
    expect(fieldProblem('   ', { label: 'Email', required: true })).toBe('Email is required.');
    expect(fieldProblem('', { label: 'Phone', format: 'phone' })).toBeNull();
  });

  it('"{field} must be between {min} and {max} characters." on the trimmed length', () => {
    const rule = { label: 'Scammer Name', required: true, length: { min: 2, max: 100 } };
    expect(fieldProblem(' a ', rule)).toBe('Scammer Name must be between 2 and 100 characters.');
    expect(fieldProblem('ab', rule)).toBeNull();
    expect(fieldProblem(`  ${'x'.repeat(100)}  `, rule)).toBeNull();
    expect(fieldProblem('x'.repeat(101), rule)).toBe(FIELD_TEXTS.length('Scammer Name', 2, 100));
  });

  it('emails', () => {
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail(' a@b.co ')).toBe(true);
    for (const bad of ['a@b', 'a b@c.de', '@b.co', 'a@@b.co', `${'x'.repeat(250)}@b.co`]) {
      expect(isEmail(bad), bad).toBe(false);
    }
    expect(fieldProblem('nope', { label: 'Email', format: 'email' })).toBe(
      'Please enter a valid email address.',
    );
  });

  it('phones: optional +, digits, spaces, dashes, brackets, at least 10 characters', () => {
    for (const good of ['+1 (555) 123-4567', '5551234567', '+44 20 7946 0958'])
      expect(isPhone(good), good).toBe(true);
    for (const bad of ['555-1234', '555.123.4567', 'call 5551234567', '----------', `+${'1'.repeat(40)}`]) {
      expect(isPhone(bad), bad).toBe(false);
    }
    expect(fieldProblem('12345', { label: 'Phone', format: 'phone' })).toBe(
      'Please enter a valid phone number.',
    );
  });

  it('URLs: http or https only', () => {
    expect(isHttpUrl('https://highgrade.example/a?b=c')).toBe(true);
    expect(isHttpUrl('http://x.example')).toBe(true);
    for (const bad of ['ftp://x.example', 'javascript:alert(1)', 'https://', 'https://a b.example']) {
      expect(isHttpUrl(bad), bad).toBe(false);
    }
    expect(fieldProblem('www.x.example', { label: 'Website', format: 'url' })).toBe(
      'Please enter a valid URL.',
    );
  });

  it('ratings between 1 and 5', () => {
    for (const good of [1, 3, 5]) expect(ratingProblem(good)).toBeNull();
    for (const bad of [0, 6, 2.5, Number.NaN, null, undefined]) {
      expect(ratingProblem(bad)).toBe('Please select a rating between 1 and 5.');
    }
  });

  it('the alphanumeric pattern: letters, digits, space, dash, underscore, dot', () => {
    expect(isAlphanumeric('Blue Dream_v2.1-A')).toBe(true);
    expect(isAlphanumeric('50% off!')).toBe(false);
    expect(fieldProblem('a/b', { label: 'Code', alphanumeric: true })).toBe(FIELD_TEXTS.alphanumeric('Code'));
  });

  it('the no-script-markup pattern: script tags, javascript:, vbscript:, onload=, onclick=', () => {
    for (const bad of [
      '<script>x</script>',
      '< / SCRIPT>',
      'JavaScript :x',
      'vbscript:x',
      'img onload=x',
      'a ONCLICK = b',
    ]) {
      expect(hasScriptMarkup(bad), bad).toBe(true);
    }
    for (const good of ['a description of a script', 'javascript developer', 'download=fast']) {
      expect(hasScriptMarkup(good), good).toBe(false);
    }
    expect(fieldProblem('<script>', { label: 'Notes' })).toBe('Notes must not contain script markup.');
    expect(fieldProblem('<script>', { label: 'Notes', noScriptMarkup: false })).toBeNull();
  });

  it('HTML where a field refuses it', () => {
    expect(fieldProblem('<b>Jo</b>', { label: 'Full Name', noHtml: true })).toBe(
      'Full Name must not contain HTML.',
    );
    expect(fieldProblem('Jo &amp; Al', { label: 'Full Name', noHtml: true })).toBe(
      FIELD_TEXTS.html('Full Name'),
    );
    expect(fieldProblem('Jo & Al < 3', { label: 'Full Name', noHtml: true })).toBeNull();
    expect(fieldProblem('<b>Jo</b>', { label: 'Company' })).toBeNull();
  });

  it('formProblems checks every field; hasProblems tells whether any failed', () => {
    const problems = formProblems(
      { name: '', email: 'x@y.zz' },
      {
        name: { label: 'Full Name', required: true },
        email: { label: 'Email', required: true, format: 'email' },
      },
    );
    expect(problems).toEqual({ name: 'Full Name is required.', email: null });
    expect(hasProblems(problems)).toBe(true);
    expect(hasProblems({ a: null, b: undefined })).toBe(false);
  });
});
