import { describe, expect, it } from 'vitest';
import { onFirstUse } from './lazy.ts';

describe('onFirstUse', () => {
  it('loads once and shares the result', async () => {
    let loads = 0;
    const get = onFirstUse(async () => ({ load: ++loads }));
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load, and shares the success that follows', async () => {
    let loads = 0;
    const get = onFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('transient');
      return { load: loads };
    });
    // Calls made while the first load runs share its failure.
    const failing = await Promise.allSettled([get(), get()]);
    expect(failing.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);

    const loaded = await get();
    expect(loaded).toEqual({ load: 2 });
    expect(await get()).toBe(loaded);
    expect(loads).toBe(2);
  });
});
