import { describe, expect, it, vi } from 'vitest';
import { createStore } from './store.ts';

describe('createStore', () => {
  it('tells subscribers about real changes only, until they leave', () => {
    const store = createStore(1);
    const listener = vi.fn();
    const leave = store.subscribe(listener);
    store.set(1);
    expect(listener).not.toHaveBeenCalled();
    store.set(2);
    store.set((current) => current + 1);
    expect(store.get()).toBe(3);
    expect(listener).toHaveBeenCalledTimes(2);
    leave();
    store.set(4);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('reads a lazy first value when first asked, once', () => {
    const initial = vi.fn(() => ({ n: 1 }));
    const store = createStore(initial);
    expect(initial).not.toHaveBeenCalled();
    expect(store.get()).toEqual({ n: 1 });
    expect(store.get()).toBe(store.get());
    expect(initial).toHaveBeenCalledTimes(1);
  });

  it('uses the given equality to decide what counts as a change', () => {
    const store = createStore({ id: 'a', at: 1 }, { equals: (a, b) => a.id === b.id });
    const listener = vi.fn();
    store.subscribe(listener);
    store.set({ id: 'a', at: 2 });
    expect(listener).not.toHaveBeenCalled();
    expect(store.get().at).toBe(1);
    store.set({ id: 'b', at: 3 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lets a listener leave while being told', () => {
    const store = createStore(0);
    const second = vi.fn();
    const leaveFirst = store.subscribe(() => leaveFirst());
    store.subscribe(second);
    store.set(1);
    store.set(2);
    expect(second).toHaveBeenCalledTimes(2);
  });
});

describe('createStore with a server value (decision 157)', () => {
  it('reads the server value on the server, whatever the browser value would be', () => {
    const initial = vi.fn(() => 'dark');
    const store = createStore(initial, { serverValue: 'light' });
    expect(store.getServerValue()).toBe('light');
    expect(initial).not.toHaveBeenCalled();
  });

  it('in the browser, hydrates from the current value itself when it equals the server value', () => {
    vi.stubGlobal('window', {});
    try {
      const signedOut = { user: null };
      const same = createStore(() => ({ user: null }), {
        serverValue: signedOut,
        equals: (a, b) => a.user === b.user,
      });
      // The very object the browser reads: React sees no difference and re-renders nothing.
      expect(same.getServerValue()).toBe(same.get());
      const member = createStore<{ user: string | null }>(() => ({ user: 'u1' }), {
        serverValue: signedOut,
        equals: (a, b) => a.user === b.user,
      });
      expect(member.getServerValue()).toBe(signedOut);
      expect(member.getServerValue()).toBe(member.getServerValue());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('without a server value, the server reads what the browser does', () => {
    const store = createStore(3);
    expect(store.getServerValue()).toBe(3);
  });
});
