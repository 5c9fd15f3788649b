/**
 * The personal-data register (docs/personal-data.md) as the site shows it: the same file the tests
 * check against the database's catalog, split at its `##` headings into the legal page's sections and
 * rendered from Markdown at build time (the file is ours, never a member's text). Links into the
 * source tree mean nothing on the site and become their text; links within the page and to the site's
 * pages stay. Tables scroll sideways on a phone in a labelled, focusable region.
 */
import { marked } from 'marked';
// biome-ignore lint/style/noRestrictedImports: docs/ is outside the aliases; the register is the repository's own document, read at build time.
import register from '../../../../../docs/personal-data.md?raw';

export interface RegisterSection {
  id: string;
  title: string;
  html: string;
}

export interface PersonalDataRegister {
  title: string;
  introHtml: string;
  sections: RegisterSection[];
}

/** GitHub's heading anchors, which the file's own links (`#kept-after-erasure`) use. */
export function anchorOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

const LINK = /<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g;

function siteHtml(markdown: string, label: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return html
    .replace(LINK, (link, href: string, text: string) =>
      href.startsWith('#') || href.startsWith('/') ? link : text,
    )
    .replace(
      /<table>/g,
      `<div role="region" tabindex="0" aria-label="${label}" class="overflow-x-auto rounded-lg border"><table class="w-full text-left text-sm">`,
    )
    .replace(/<\/table>/g, '</table></div>');
}

export function personalDataRegister(markdown: string = register): PersonalDataRegister {
  const [head = '', ...parts] = markdown.split(/^## /m);
  const title = /^# (.+)$/m.exec(head)?.[1]?.trim() ?? 'Personal data';
  const intro = head.replace(/^# .+$/m, '').trim();
  return {
    title,
    introHtml: siteHtml(intro, title),
    sections: parts.map((part) => {
      const newline = part.indexOf('\n');
      const sectionTitle = part.slice(0, newline).trim();
      return {
        id: anchorOf(sectionTitle),
        title: sectionTitle,
        html: siteHtml(part.slice(newline + 1), sectionTitle),
      };
    }),
  };
}
