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
