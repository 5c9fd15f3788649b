import { describe, expect, it } from 'vitest';
import { parseStoredSession, sessionKeyOf, storedSessionRemoved } from './stored-session.ts';

const session = {
  access_token: 'a.b.c',
  refresh_token: 'r3fr3sh',
  expires_at: 1,
  token_type: 'bearer',
  user: { id: 'u-1', email: 'alex@example.com', identities: [] },
};

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'HS256' })}.${part(claims)}.sig`;
}

describe('parseStoredSession', () => {
  it("reads the member of supabase-js's stored session, expired or not", () => {
    expect(parseStoredSession(JSON.stringify(session))).toEqual({ id: 'u-1', email: 'alex@example.com' });
  });

  it('reads the older wrapped format', () => {
    expect(parseStoredSession(JSON.stringify({ currentSession: session, expiresAt: 1 }))).toEqual({
      id: 'u-1',
      email: 'alex@example.com',
    });
  });

  it('gives an empty email for an account without one', () => {
    expect(parseStoredSession(JSON.stringify({ ...session, user: { id: 'u-2' } }))).toEqual({
      id: 'u-2',
      email: '',
    });
  });

  it.each([
    null,
    '',
    'not json',
    'null',
    '42',
    JSON.stringify({ ...session, refresh_token: '' }),
    JSON.stringify({ ...session, refresh_token: undefined }),
    JSON.stringify({ ...session, user: null }),
    JSON.stringify({ ...session, user: { id: 7 } }),
  ])('treats %j as signed out', (raw) => {
    expect(parseStoredSession(raw)).toBeNull();
  });
});

describe('sessionKeyOf', () => {
  it("is the access token's session_id, the same across refreshes", () => {
    expect(sessionKeyOf(jwt({ sub: 'u-1', session_id: 's-1', exp: 1 }), 'u-1')).toBe('s-1');
    expect(sessionKeyOf(jwt({ sub: 'u-1', session_id: 's-1', exp: 2 }), 'u-1')).toBe('s-1');
  });

  it('falls back to the user id', () => {
    expect(sessionKeyOf(jwt({ sub: 'u-1' }), 'u-1')).toBe('user:u-1');
    expect(sessionKeyOf('garbage', 'u-1')).toBe('user:u-1');
    expect(sessionKeyOf('a.%%%.c', 'u-1')).toBe('user:u-1');
    expect(sessionKeyOf(undefined, 'u-1')).toBe('user:u-1');
  });
});

describe('storedSessionRemoved', () => {
  const key = 'sb-localhost-auth-token';
  it('is true when another tab removed the session or cleared the storage', () => {
    expect(storedSessionRemoved({ key, newValue: null }, key)).toBe(true);
    expect(storedSessionRemoved({ key: null, newValue: null }, key)).toBe(true);
  });
  it('is false for a refreshed session or another key', () => {
    expect(storedSessionRemoved({ key, newValue: '{"refresh_token":"r"}' }, key)).toBe(false);
    expect(storedSessionRemoved({ key: `${key}-code-verifier`, newValue: null }, key)).toBe(false);
    expect(storedSessionRemoved({ key: 'theme', newValue: null }, key)).toBe(false);
  });
});
