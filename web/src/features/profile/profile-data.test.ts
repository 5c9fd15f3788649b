import { describe, expect, it } from 'vitest';
import {
  avatarPathFor,
  avatarPathOf,
  initialsOf,
  productPath,
  profileTabOf,
  profileUpdateOf,
} from './profile-data.ts';

const USER = '6f1c1f7e-3d55-4a4a-9a34-9e1c0c1d2e3f';

describe('profileTabOf', () => {
  it('selects a known tab and falls back to settings', () => {
    expect(profileTabOf('privacy')).toBe('privacy');
    expect(profileTabOf('subscription')).toBe('subscription');
    expect(profileTabOf(null)).toBe('settings');
    expect(profileTabOf('admin')).toBe('settings');
    expect(profileTabOf('')).toBe('settings');
  });
});

describe('initialsOf', () => {
  it('uses the display name, then the username, then ?', () => {
    expect(initialsOf({ full_name: 'Mary Jane Watson', username: 'mj' })).toBe('MW');
    expect(initialsOf({ full_name: null, username: 'grower_joe' })).toBe('GJ');
    expect(initialsOf({ full_name: '  ', username: 'kush' })).toBe('K');
    expect(initialsOf({ full_name: null, username: null })).toBe('?');
    expect(initialsOf(null)).toBe('?');
  });
});

describe('profileUpdateOf', () => {
  it('saves empty or blank fields as null and trims the rest', () => {
    expect(profileUpdateOf({ username: '', fullName: '  ', bio: '' })).toEqual({
      username: null,
      full_name: null,
      bio: null,
    });
    expect(profileUpdateOf({ username: ' kush ', fullName: 'Mary', bio: 'Grower.' })).toEqual({
      username: 'kush',
      full_name: 'Mary',
      bio: 'Grower.',
    });
  });
});

describe('avatarPathOf', () => {
  const base = 'https://hg.example/storage/v1/object/public/user-uploads';

  it('finds the member’s own object path in a public URL', () => {
    expect(avatarPathOf(`${base}/${USER}/avatar-1.png`, USER)).toBe(`${USER}/avatar-1.png`);
    expect(avatarPathOf(`${base}/${USER}/avatar%201.png`, USER)).toBe(`${USER}/avatar 1.png`);
  });

  it('refuses URLs that are not the member’s own upload', () => {
    expect(avatarPathOf(null, USER)).toBeNull();
    expect(avatarPathOf('not a url', USER)).toBeNull();
    expect(avatarPathOf('https://elsewhere.example/me.png', USER)).toBeNull();
    expect(avatarPathOf(`${base}/someone-else/avatar-1.png`, USER)).toBeNull();
    expect(avatarPathOf(`${base}/${USER}/../other/avatar.png`, USER)).toBeNull();
    expect(avatarPathOf(`${base}/${USER}/%2e%2e/other/a.png`, USER)).toBeNull();
    expect(
      avatarPathOf(`https://hg.example/storage/v1/object/public/community-review-media/${USER}/a.png`, USER),
    ).toBeNull();
  });
});

describe('avatarPathFor', () => {
  it('builds {userId}/avatar-{timestamp}.{extension}', () => {
    expect(avatarPathFor(USER, 'png', 1700000000000)).toBe(`${USER}/avatar-1700000000000.png`);
  });
});

describe('productPath', () => {
  it("is the product's Pass or Gas page, its id escaped for the address", () => {
    expect(productPath('3f2a')).toBe('/pass-or-gas/3f2a');
    expect(productPath('a/b c')).toBe('/pass-or-gas/a%2Fb%20c');
  });
});
