import { describe, expect, it } from 'vitest';
import { shareCardSvg } from './share-images.ts';

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
