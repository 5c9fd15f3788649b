import { describe, expect, it } from 'vitest';
import { validateSource } from './source-form.ts';

describe('the source form', () => {
  it('takes a name, a category and an http(s) feed address', () => {
    expect(
      validateSource({ name: 'Gazette', feedUrl: 'https://gazette.example/feed', category: 'Policy' }),
    ).toEqual({});
  });
  it('says what is missing or wrong', () => {
    expect(validateSource({ name: ' ', feedUrl: 'ftp://x', category: '<b>' })).toEqual({
      name: 'Name is required',
      feedUrl: 'Enter an http:// or https:// address',
      category: 'HTML is not allowed',
    });
  });
});
