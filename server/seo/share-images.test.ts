import { describe, expect, it } from 'vitest';
import { ownPublicObject, shareCardSvg } from './share-images.ts';

describe('shareCardSvg', () => {
  it('escapes every text and keeps long names to two cut lines', () => {
    const svg = shareCardSvg(
      {
        label: 'Brand <Directory>',
        title: 'A & B </text><script>x</script> with a very long name that goes on and on and on',
        facts: [['12', 'products']],
        footer: 'Oakland "CA"',
      },
      'High&Grade',
    );
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('High&amp;Grade');
    expect(svg).toContain('Brand &lt;Directory&gt;');
    expect(svg).toContain('Oakland &quot;CA&quot;');
    const titles = [...svg.matchAll(/class="title">([^<]*)</g)].map((match) => match[1] ?? '');
    expect(titles).toHaveLength(2);
    for (const line of titles) expect(line.replaceAll(/&[a-z]+;/g, '_').length).toBeLessThanOrEqual(28);
    expect(titles[1]).toMatch(/…$/);
  });
});

describe('ownPublicObject', () => {
  it("takes only a public object of this site's own image buckets, never another address", () => {
    expect(ownPublicObject('https://x.example/storage/v1/object/public/brand-logos/b1/logo.png')).toBe(
      'brand-logos/b1/logo.png',
    );
    expect(ownPublicObject('http://127.0.0.1:54321/storage/v1/object/public/product-images/p/1.webp')).toBe(
      'product-images/p/1.webp',
    );
    for (const url of [
      null,
      'https://cdn.example.com/acme.png',
      'https://x.example/storage/v1/object/public/scammer-evidence/r/1.png',
      'https://x.example/storage/v1/object/sign/brand-logos/b1/logo.png?token=t',
      'https://x.example/storage/v1/object/public/brand-logos/../scammer-evidence/1.png',
      'not a url',
    ]) {
      expect(ownPublicObject(url), String(url)).toBeNull();
    }
    // A query string or fragment is not part of the object's path.
    expect(
      ownPublicObject('https://x.example/storage/v1/object/public/brand-logos/b1/logo.png?download=1#x'),
    ).toBe('brand-logos/b1/logo.png');
  });

  it('draws the title shorter when a picture takes the top right', () => {
    const card = {
      label: 'Brand Directory',
      title: 'Twenty two characters and then some more',
      facts: [],
      footer: '',
    };
    const lines = (svg: string) =>
      [...svg.matchAll(/class="title">([^<]*)</g)].map((match) => match[1] ?? '');
    expect(lines(shareCardSvg({ ...card, pictured: true }, 'HG')).every((line) => line.length <= 23)).toBe(
      true,
    );
    expect(lines(shareCardSvg(card, 'HG'))[0]?.length).toBeGreaterThan(23);
  });
});
