/**
 * The reference docs cannot drift from the code (issue 38 part 4): supabase/README.md names every
 * migration and definition file (and no file that is gone), docs/product.md's route table lists every
 * route of the app as built, and docs/architecture.md maps every folder of server/. Product §calls has
 * its own check (scripts/web-calls.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_PATHS } from '#web/app/route-paths.ts';

const read = (path: string) => readFileSync(path, 'utf8');
const sqlFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.sql'));

describe('supabase/README.md', () => {
  const readme = read('supabase/README.md');
  const files = [...sqlFiles('supabase/migrations'), ...sqlFiles('supabase/definitions')];

  it('names every migration and definition file', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((file) => !readme.includes(`\`${file}\``) && !readme.includes(`/${file}\``))).toEqual(
      [],
    );
  });

  it('names no SQL file that does not exist', () => {
    const named = [...readme.matchAll(/([\w.-]+\.sql)\b/g)].map((match) => match[1] as string);
    expect(named.filter((file) => !files.includes(file) && !/^<|^name\.sql$/.test(file))).toEqual([]);
  });
});

describe('docs/product.md routes', () => {
  const doc = read('docs/product.md');
  const table = doc.slice(doc.indexOf('| Route | Page | Status |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);

  it('lists every route of the app (web/src/app/route-paths.ts)', () => {
    const listed = new Set(rows.flatMap((row) => [...row.matchAll(/`(\/[^`]*)`/g)].map((match) => match[1])));
    expect(ROUTE_PATHS.filter((path) => !listed.has(path))).toEqual([]);
  });

  it('calls no route with a page "planned"', () => {
    expect(rows.filter((row) => /\|\s*planned/.test(row))).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const doc = read('docs/architecture.md');

  it('maps every folder of server/', () => {
    const folders = readdirSync('server', { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `server/${entry.name}/`);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((folder) => !doc.includes(`| \`${folder}\``))).toEqual([]);
  });

  it('calls no built area "to come"', () => {
    expect(doc).not.toMatch(/areas to come|to come \(/);
  });
});
