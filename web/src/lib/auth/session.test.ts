import type { Session } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./stored-session.ts', async (original) => ({
  ...(await original<typeof import('./stored-session.ts')>()),
  readStoredSessionUser: () => null,
}));
vi.mock('./api/ensure-profile.ts', () => ({ ensureProfile: vi.fn(async () => 'exists') }));
vi.mock('./api/get-is-admin.ts', () => ({ getIsAdmin: vi.fn(async () => true) }));
vi.mock('#web/lib/supabase.ts', () => ({ loadSupabase: vi.fn() }));
vi.mock('#web/components/ui/use-toast.ts', () => ({ toast: vi.fn() }));

const { handleAuthEvent, onPasswordRecovery } = await import('./session.ts');
const { getAuthState } = await import('./session-store.ts');
const { ensureProfile } = await import('./api/ensure-profile.ts');
const { getIsAdmin } = await import('./api/get-is-admin.ts');

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'HS256' })}.${part(claims)}.sig`;
}

function sessionFor(id: string, email: string, sessionId = `s-${id}`): Session {
  return {
    access_token: jwt({ sub: id, session_id: sessionId }),
    refresh_token: 'r',
    expires_in: 3600,
    expires_at: 0,
    token_type: 'bearer',
    user: {
      id,
      email,
      app_metadata: {},
      user_metadata: { full_name: 'Alex Example' },
      aud: 'authenticated',
      created_at: '',
    },
  } as Session;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(ensureProfile).mockClear();
  vi.mocked(getIsAdmin).mockClear();
});
afterEach(() => {
  handleAuthEvent('SIGNED_OUT', null);
  vi.useRealTimers();
});

describe('handleAuthEvent (product §session: events into the session store)', () => {
  it('records the member of a restored session and welcomes them once', async () => {
    handleAuthEvent('INITIAL_SESSION', sessionFor('u-1', 'alex@example.com'));
    expect(getAuthState()).toMatchObject({
      user: { id: 'u-1', email: 'alex@example.com' },
      sessionKey: 's-u-1',
      confirmed: true,
      isAdmin: false,
    });
    await vi.runAllTimersAsync();
    expect(ensureProfile).toHaveBeenCalledWith({
      id: 'u-1',
      email: 'alex@example.com',
      fullName: 'Alex Example',
    });
    expect(getAuthState().isAdmin).toBe(true);

    // A refresh or a refocus of the tab is not a new member.
    handleAuthEvent('TOKEN_REFRESHED', sessionFor('u-1', 'alex@example.com'));
    handleAuthEvent('SIGNED_IN', sessionFor('u-1', 'alex@example.com'));
    await vi.runAllTimersAsync();
    expect(ensureProfile).toHaveBeenCalledTimes(1);
    expect(getAuthState().isAdmin).toBe(true);
  });

  it('forgets everything on SIGNED_OUT and on a missing initial session', () => {
    handleAuthEvent('SIGNED_IN', sessionFor('u-2', 'b@example.com'));
    handleAuthEvent('SIGNED_OUT', null);
    expect(getAuthState()).toMatchObject({ user: null, sessionKey: null, isAdmin: false, confirmed: true });
    handleAuthEvent('INITIAL_SESSION', null);
    expect(getAuthState().user).toBeNull();
  });

  it('welcomes a different member signing in', async () => {
    handleAuthEvent('SIGNED_IN', sessionFor('u-3', 'c@example.com'));
    await vi.runAllTimersAsync();
    vi.mocked(getIsAdmin).mockResolvedValueOnce(false);
    handleAuthEvent('SIGNED_IN', sessionFor('u-4', 'd@example.com'));
    expect(getAuthState().isAdmin).toBe(false);
    await vi.runAllTimersAsync();
    expect(ensureProfile).toHaveBeenCalledTimes(2);
    expect(getAuthState()).toMatchObject({ user: { id: 'u-4' }, isAdmin: false });
  });

  it('follows an email change (USER_UPDATED) and a new session of the same member', () => {
    handleAuthEvent('SIGNED_IN', sessionFor('u-5', 'old@example.com', 's-a'));
    handleAuthEvent('USER_UPDATED', sessionFor('u-5', 'new@example.com', 's-a'));
    expect(getAuthState().user?.email).toBe('new@example.com');
    handleAuthEvent('SIGNED_IN', sessionFor('u-5', 'new@example.com', 's-b'));
    expect(getAuthState().sessionKey).toBe('s-b');
  });

  it('calls the recovery handlers on PASSWORD_RECOVERY only', () => {
    const handler = vi.fn();
    const remove = onPasswordRecovery(handler);
    handleAuthEvent('SIGNED_IN', sessionFor('u-6', 'e@example.com'));
    expect(handler).not.toHaveBeenCalled();
    handleAuthEvent('PASSWORD_RECOVERY', sessionFor('u-6', 'e@example.com'));
    expect(handler).toHaveBeenCalledTimes(1);
    remove();
    handleAuthEvent('PASSWORD_RECOVERY', sessionFor('u-6', 'e@example.com'));
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('survives a failing profile or role lookup', async () => {
    vi.mocked(ensureProfile).mockRejectedValueOnce(new Error('offline'));
    vi.mocked(getIsAdmin).mockRejectedValueOnce(new Error('offline'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    handleAuthEvent('SIGNED_IN', sessionFor('u-7', 'f@example.com'));
    await vi.runAllTimersAsync();
    expect(getAuthState()).toMatchObject({ user: { id: 'u-7' }, isAdmin: false });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
