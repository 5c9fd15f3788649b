import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bothDatabasesReason, databaseTestFiles } from './test-files.mjs';

const ROOT = join(import.meta.dirname, '..');

describe('which database test files run on PostgreSQL too (decision 164)', () => {
  it('reads the reason after the marker', () => {
    expect(bothDatabasesReason("// @databases: both — row-level security is SQL\nimport 'x';")).toBe(
      'row-level security is SQL',
    );
    expect(bothDatabasesReason("import 'x';\n")).toBeUndefined();
  });

  it('refuses a marker without a reason, and one below the head of the file', () => {
    expect(bothDatabasesReason('// @databases: both\n')).toBeUndefined();
    expect(bothDatabasesReason('// @databases: both — \n')).toBeUndefined();
    const deep = `${'\n'.repeat(40)}// @databases: both — too late\n`;
    expect(bothDatabasesReason(deep)).toBeUndefined();
  });

  it('every file that names @databases gives a reason the runner reads, so none is silently PGlite-only', () => {
    const files = databaseTestFiles(ROOT);
    expect(files.length).toBeGreaterThan(50);
    for (const { path, both } of files) {
      const head = readFileSync(join(ROOT, path), 'utf8').split('\n').slice(0, 30).join('\n');
      if (head.includes('@databases')) expect({ path, both }).toEqual({ path, both: true });
    }
    expect(files.filter(({ both }) => both).length).toBeGreaterThan(0);
  });
});
