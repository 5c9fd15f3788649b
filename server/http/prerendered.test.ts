import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_PLACEHOLDERS, escapeHtml, fillConfig, loadPrerenderedPages } from './prerendered.ts';

const PLACEHOLDER = '<!--app-config-->';
const config = { siteName: 'Tom & Jerry\'s <b>"Grade"</b>', supportEmail: 'help@example.com' };

describe('escapeHtml', () => {
  it('leaves nothing that could open a tag or close an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#x27;y&#x27;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('fillConfig', () => {
  it("puts the deployment's values, escaped, wherever the prerender left a placeholder", () => {
    const html = `<title>News · ${CONFIG_PLACEHOLDERS.siteName}</title><a href="mailto:${CONFIG_PLACEHOLDERS.supportEmail}">${CONFIG_PLACEHOLDERS.supportEmail}</a><span>${CONFIG_PLACEHOLDERS.siteName}</span>`;
    expect(fillConfig(html, config)).toBe(
      '<title>News · Tom &amp; Jerry&#x27;s &lt;b&gt;&quot;Grade&quot;&lt;/b&gt;</title>' +
        '<a href="mailto:help@example.com">help@example.com</a>' +
        '<span>Tom &amp; Jerry&#x27;s &lt;b&gt;&quot;Grade&quot;&lt;/b&gt;</span>',
    );
  });
});

describe('loadPrerenderedPages', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'highgrade-prerendered-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives no page for a build without them', async () => {
    expect((await loadPrerenderedPages(dir, config, PLACEHOLDER)).size).toBe(0);
  });

  it('reads each page with its configuration filled in, split where the run-time config goes', async () => {
    await mkdir(join(dir, 'prerendered'));
    await writeFile(
      join(dir, 'prerendered/pages.json'),
      JSON.stringify({ '/news': { file: 'news.html', styleHashes: ['sha256-abc='] } }),
    );
    await writeFile(
      join(dir, 'prerendered/news.html'),
      `<head><title>${CONFIG_PLACEHOLDERS.siteName}</title>${PLACEHOLDER}</head><body>${CONFIG_PLACEHOLDERS.supportEmail}</body>`,
    );
    const pages = await loadPrerenderedPages(dir, config, PLACEHOLDER);
    expect([...pages.keys()]).toEqual(['/news']);
    expect(pages.get('/news')).toEqual({
      head: `<head><title>${escapeHtml(config.siteName)}</title>`,
      tail: '</head><body>help@example.com</body>',
      styleHashes: ['sha256-abc='],
    });
  });

  it('refuses a page without exactly one place for the configuration', async () => {
    await mkdir(join(dir, 'prerendered'));
    await writeFile(
      join(dir, 'prerendered/pages.json'),
      JSON.stringify({ '/': { file: 'index.html', styleHashes: [] } }),
    );
    await writeFile(join(dir, 'prerendered/index.html'), '<head></head>');
    await expect(loadPrerenderedPages(dir, config, PLACEHOLDER)).rejects.toThrow(/placeholder exactly once/);
  });
});
