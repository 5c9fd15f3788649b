import { describe, expect, it } from 'vitest';
import { authorLabel } from './author-label.ts';

describe('authorLabel', () => {
  it('names the author by full name and username', () => {
    expect(authorLabel({ full_name: 'Quinn Commenter', username: 'quinn' })).toBe('Quinn Commenter (@quinn)');
  });

  it('uses what there is of it', () => {
    expect(authorLabel({ full_name: '  Quinn  ', username: null })).toBe('Quinn');
    expect(authorLabel({ full_name: ' ', username: 'quinn' })).toBe('@quinn');
    expect(authorLabel({ full_name: null, username: null })).toBe('a member without a name');
  });

  it('says so when the account is gone', () => {
    expect(authorLabel(null)).toBe('a deleted account');
  });
});
