import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Decision 171: how members' long words wrap is decided once, by `overflow-wrap: anywhere` on <body>
 * (styles.css), which every element inherits. A utility that sets overflow-wrap or word-break again
 * (`break-words` is `overflow-wrap: break-word`, which still lets a 2,000-character word set a flex
 * item's minimum width) would undo it for that element, so none may be used.
 */

const SRC = new URL('.', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('long words in user text', () => {
  it('wrap by one inherited rule on the body', () => {
    const css = readFileSync(join(SRC, 'styles.css'), 'utf8');
    expect(css).toMatch(/body \{[^}]*overflow-wrap: anywhere;[^}]*\}/);
  });

  it('are not wrapped differently anywhere in the app', () => {
    const offenders = sources(SRC).filter((path) =>
      /\b(break-words|break-all|break-keep|wrap-break-word|wrap-normal)\b/.test(readFileSync(path, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
