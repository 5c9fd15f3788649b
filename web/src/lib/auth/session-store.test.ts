import { describe, expect, it, vi } from 'vitest';

// No browser here: the stored session reads as signed out.
vi.mock('./stored-session.ts', () => ({ readStoredSessionUser: () => null }));

const { authStore, getAuthState, setAuthState } = await import('./session-store.ts');

describe('session store', () => {
  it('starts from the stored session, unconfirmed', () => {
    expect(getAuthState()).toEqual({ user: null, sessionKey: null, isAdmin: false, confirmed: false });
  });

  it('notifies subscribers of real changes only, with a new snapshot each time', () => {
    const listener = vi.fn();
    const unsubscribe = authStore.subscribe(listener);
    const before = getAuthState();
    setAuthState({ user: { id: 'u', email: 'a@example.com' }, confirmed: true });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getAuthState()).not.toBe(before);
    setAuthState({ user: { id: 'u', email: 'a@example.com' }, confirmed: true });
    expect(listener).toHaveBeenCalledTimes(1);
    setAuthState({ isAdmin: true });
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    setAuthState({ user: null });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(getAuthState().user).toBeNull();
  });
});
