import { describe, expect, it } from 'vitest';
import { isLocalSiteUrl } from '../config.ts';
import { jsonLdForHtml, markdownText, prepareHead, renderHead, summarise } from './head.ts';

const site = { siteUrl: 'https://hg.example.org', siteName: 'H"G' };

describe('renderHead', () => {
  it('escapes every value and writes absolute URLs', () => {
    const html = renderHead(
      {
        title: '<b>"Kush"</b>',
        description: "it's <script>",
        canonicalPath: '/pass-or-gas/a&b',
        noindex: false,
        image: '/og.png',
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'Thing', name: '</script><script>x' }],
      },
      site,
    );
    expect(html).toContain('<title>&lt;b&gt;&quot;Kush&quot;&lt;/b&gt; · H&quot;G</title>');
    expect(html).toContain('<meta name="description" content="it&#x27;s &lt;script&gt;" />');
    expect(html).toContain('<link rel="canonical" href="https://hg.example.org/pass-or-gas/a&amp;b" />');
    expect(html).toContain('<meta property="og:image" content="https://hg.example.org/og.png" />');
    expect(html).not.toContain('</script><script>x');
    expect(html).toContain('"name":"\\u003c/script\\u003e\\u003cscript\\u003ex"');
    expect(html).not.toContain('robots');
  });

  it('a page without a canonical address is noindex and has no og:url', () => {
    const html = renderHead({ description: 'x', canonicalPath: null, noindex: true }, site);
    expect(html).toContain('<title>H&quot;G</title>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html).not.toContain('og:url');
    expect(html).not.toContain('canonical');
  });
});

describe('text for descriptions', () => {
  it('cuts long text at a word with an ellipsis, on one line', () => {
    const text = `${'word '.repeat(60)}end`;
    const short = summarise(text, 50);
    expect(short.length).toBeLessThanOrEqual(50);
    expect(short).toMatch(/^word( word)*…$/);
    expect(summarise('a\n\n b')).toBe('a b');
  });

  it('reads Markdown as plain text', () => {
    expect(markdownText('# Title\n> quote **bold** `code` [link](https://x.example)')).toBe(
      'Title\nquote bold code link',
    );
  });

  it('keeps JSON-LD from ending its element', () => {
    expect(jsonLdForHtml({ a: '</script>&\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u0026\\u2028"}');
  });
});

describe('prepareHead', () => {
  it('takes the title and description out and leaves the marker', () => {
    const { html, title } = prepareHead(
      '<head><meta name="description" content="x" /><title>News · A &amp; B</title><script src="/a.js"></script>',
    );
    expect(title).toBe('News · A & B');
    expect(html).toBe('<head><!--page-head-->\n    <script src="/a.js"></script>');
  });
});

describe('isLocalSiteUrl (SEARCH_INDEXING default, decision 186)', () => {
  it.each([
    ['http://localhost:3000', true],
    ['http://127.0.0.1:3000', true],
    ['http://10.1.2.3', true],
    ['http://192.168.0.5', true],
    ['http://172.20.0.1', true],
    ['http://[::1]:3000', true],
    ['http://highgrade.local', true],
    ['http://intranet', true],
    ['https://staging.internal', true],
    ['https://highgrade.com', false],
    ['https://www.highgrade.co.uk', false],
    ['https://8.8.8.8', false],
  ])('%s → %s', (url, local) => {
    expect(isLocalSiteUrl(url)).toBe(local);
  });
});
