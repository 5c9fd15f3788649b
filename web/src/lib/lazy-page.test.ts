import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazy-page.tsx';

function Hello({ name }: { name: string }) {
  return createElement('p', null, `Hello ${name}`);
}

const inSuspense = (page: ReturnType<typeof lazyPage<{ name: string }>>) =>
  renderToString(createElement(Suspense, { fallback: 'loading' }, createElement(page, { name: 'Ada' })));

describe('lazyPage', () => {
  it('suspends until its chunk is there', () => {
    const Page = lazyPage(() => new Promise<{ default: typeof Hello }>(() => undefined));
    expect(inSuspense(Page)).toContain('loading');
  });

  it('once loaded, renders at once without suspending (hydration needs the same tree in one pass)', async () => {
    const Page = lazyPage(async () => ({ default: Hello }));
    await Page.load();
    const html = inSuspense(Page);
    expect(html).toContain('Hello Ada');
    expect(html).not.toContain('loading');
  });

  it('load() settles also when the chunk fails, and a later load tries again', async () => {
    let attempts = 0;
    const Page = lazyPage(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('offline');
      return { default: Hello };
    });
    await expect(Page.load()).resolves.toBeUndefined();
    await Page.load();
    expect(attempts).toBe(2);
    expect(inSuspense(Page)).toContain('Hello Ada');
  });
});
