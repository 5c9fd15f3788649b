import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageFile, pagePreloads, routeModule, styleAttributeHashes } from './prerender.ts';

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('styleAttributeHashes', () => {
  it("hashes each distinct style attribute's value as the browser reads it (unescaped)", () => {
    const html =
      '<div style="outline:none"></div><p style="outline:none"></p>' +
      '<span style="font-family:&quot;A&quot;"></span><div data-style="x"></div>';
    expect(styleAttributeHashes(html)).toEqual([sha256('outline:none'), sha256('font-family:"A"')].sort());
    expect(styleAttributeHashes('<div></div>')).toEqual([]);
  });
});

describe('routeModule and pageFile', () => {
  it('name the page module and the file of a path', () => {
    expect(routeModule('/')).toBe('src/app/routes/home.tsx');
    expect(routeModule('/pass-or-gas/how-rankings-work')).toBe(
      'src/app/routes/pass-or-gas-how-rankings-work.tsx',
    );
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/pass-or-gas/how-rankings-work')).toBe('pass-or-gas-how-rankings-work.html');
  });
});

describe('pagePreloads', () => {
  const manifest = {
    'src/main.tsx': { file: 'assets/index-1.js', isEntry: true },
    'src/start.tsx': { file: 'assets/start-1.js', imports: ['src/main.tsx', '_react', '_vendor', '_icon'] },
    'src/app/routes/news.tsx': { file: 'assets/news-1.js', imports: ['_vendor', '_feed'] },
    _react: { file: 'assets/react-1.js' },
    _vendor: { file: 'assets/vendor-1.js' },
    _icon: { file: 'assets/icon-1.js' },
    _feed: { file: 'assets/feed-1.js' },
  };
  const sizes: Record<string, number> = { 'assets/icon-1.js': 300 };

  it("lists the app's and the page's chunks and their sizeable imports, not the entry, React or an icon", () => {
    expect(pagePreloads(manifest, 'src/app/routes/news.tsx', (file) => sizes[file] ?? 50_000)).toEqual([
      '/assets/start-1.js',
      '/assets/vendor-1.js',
      '/assets/news-1.js',
      '/assets/feed-1.js',
    ]);
  });

  it('fails the build for a page the manifest does not know', () => {
    expect(() => pagePreloads(manifest, 'src/app/routes/nowhere.tsx', () => 0)).toThrow(/manifest/);
  });
});
