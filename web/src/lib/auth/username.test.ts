import { describe, expect, it } from 'vitest';
import { deriveUsername, usernameWithSuffix } from './username.ts';

describe('deriveUsername (product §profile-creation)', () => {
  it.each([
    ['alex@example.com', 'alex'],
    ['Alex.Smith+news@Example.com', 'alex_smith_news'],
    ['jean-luc.o’neil@example.com', 'jean_luc_o_neil'],
    ['user_42@example.com', 'user_42'],
    ['ÅSA@example.com', '_sa'],
    ['"odd@local"@example.com', '_odd'],
    ['no-at-sign', 'no_at_sign'],
    ['@example.com', 'user'],
  ])('%s → %s', (email, username) => {
    expect(deriveUsername(email)).toBe(username);
  });

  it('keeps usernames within what the database accepts', () => {
    const username = deriveUsername(`${'a'.repeat(100)}@example.com`);
    expect(username).toHaveLength(48);
    expect(usernameWithSuffix(username)).toMatch(/^[a-z0-9_]{55}$/);
  });

  it('suffixes a taken username with six hex characters', () => {
    expect(usernameWithSuffix('alex', () => 0)).toBe('alex_000000');
    expect(usernameWithSuffix('alex', () => 0.999999999)).toBe('alex_ffffff');
  });
});
