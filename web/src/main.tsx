import './styles.css';
import { yieldToMain } from './lib/yield-to-main.ts';

/**
 * The entry the page loads: the styles, and the app's code once a prerendered page has painted
 * (decision 157). Such a page is readable from its HTML and CSS alone; fetching and running the app's
 * code first would compete with them on a slow connection and hold the first paint behind long tasks.
 * So the app's chunks start when the browser reports the first contentful paint (at once in a hidden
 * tab, which paints nothing, and after a second at the latest). An empty page (a path that is not
 * prerendered) has nothing to paint and starts at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const prerendered = document.getElementById('root')?.dataset.prerendered;
    if (!prerendered || document.visibilityState === 'hidden' || !('PerformanceObserver' in window)) {
      return resolve();
    }
    const done = () => {
      observer.disconnect();
      clearTimeout(fallback);
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    const fallback = setTimeout(done, 1000);
    try {
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      done(); // no paint timing in this browser
    }
  });
}

/** The app's and the page's chunks the prerender listed, fetched together rather than one by one. */
function preloadPageChunks(): void {
  const files = document.getElementById('root')?.dataset.preload?.split(' ') ?? [];
  for (const file of files) {
    if (!file.startsWith('/assets/')) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = file;
    document.head.append(link);
  }
}

// React first, then the libraries the app starts with, then the app, then its start: each chunk's
// code is evaluated in a task of its own (decisions 157, 158). clsx stands for the `vendor` chunk
// (vite.config.ts): importing it evaluates that chunk. (Not a bigger library: a dynamic import keeps
// every export of its module, where the app's static imports let the bundler drop the unused ones.)
void afterFirstPaint()
  .then(() => {
    preloadPageChunks();
    return import('react-dom/client');
  })
  .then(yieldToMain)
  .then(() => import('clsx'))
  .then(yieldToMain)
  .then(() => import('./start.tsx'))
  .then(async ({ start }) => {
    await yieldToMain();
    return start();
  });
