import { describe, expect, it } from 'vitest';
import {
  checksum,
  MIGRATION_SOURCES,
  MigrationError,
  orderDefinitionNames,
  orderMigrationNames,
  readMigrations,
  replacedChecksums,
} from './migrate.ts';

const sequence = { naming: 'sequence' as const, dir: 'x' };
const timestamp = { naming: 'timestamp' as const, dir: 'x' };

describe('migration file names', () => {
  it('orders sequence files and ignores other files', () => {
    expect(orderMigrationNames(sequence, ['0002_b.sql', 'README.md', '0001_a.sql'])).toEqual([
      '0001_a.sql',
      '0002_b.sql',
    ]);
  });

  it.each([
    [['0001_a.sql', '0001_b.sql'], /share the number 0001/],
    [['0001_a.sql', '0003_c.sql'], /misnumbered: expected 0002/],
    [['0002_a.sql'], /misnumbered: expected 0001/],
    [['1_a.sql'], /misnamed/],
    [['0001_Bad-Name.sql'], /misnamed/],
  ])('rejects sequence files %j', (names, message) => {
    expect(() => orderMigrationNames(sequence, names)).toThrow(MigrationError);
    expect(() => orderMigrationNames(sequence, names)).toThrow(message);
  });

  it('orders timestamped files and rejects duplicates and bad names', () => {
    expect(orderMigrationNames(timestamp, ['20261121100000_b.sql', '20261120100000_a.sql'])).toEqual([
      '20261120100000_a.sql',
      '20261121100000_b.sql',
    ]);
    expect(() => orderMigrationNames(timestamp, ['20261121100000_a.sql', '20261121100000_b.sql'])).toThrow(
      /share the number/,
    );
    expect(() => orderMigrationNames(timestamp, ['2026_a.sql'])).toThrow(/misnamed/);
  });

  it('accepts every migration in this repository (none duplicated or misnumbered)', async () => {
    const files = await readMigrations(MIGRATION_SOURCES);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file.sql).not.toMatch(/^\s*(begin|commit|rollback)\s*;/im);
    }
  });

  it('orders definitions by name and rejects names that are not snake_case', () => {
    expect(orderDefinitionNames('x', ['b.sql', 'README.md', 'a_1.sql'])).toEqual(['a_1.sql', 'b.sql']);
    expect(() => orderDefinitionNames('x', ['Apply-Changes.sql'])).toThrow(
      /misnamed: expected snake_case.sql/,
    );
  });

  it('reads the earlier contents a migration replaces from its `-- replaces sha256` lines', () => {
    const hash = checksum('old');
    expect(replacedChecksums(`-- note\n-- replaces sha256 ${hash}\ncreate table t (id int);`)).toEqual([
      hash,
    ]);
    expect(replacedChecksums(`-- replaces sha256 abc\n--replaces sha256 ${hash}`)).toEqual([]);
  });
});

describe('the schema files of this repository', () => {
  it('define each SQL function in one file only (decision 089)', async () => {
    const definedIn = new Map<string, string[]>();
    for (const file of await readMigrations()) {
      for (const match of file.sql.matchAll(
        /^\s*create\s+(?:or\s+replace\s+)?function\s+([\w."]+)\s*\(/gim,
      )) {
        const name = (match[1] as string).replaceAll('"', '').toLowerCase();
        const files = definedIn.get(name) ?? [];
        if (!files.includes(file.path)) files.push(file.path);
        definedIn.set(name, files);
      }
    }
    expect(definedIn.size).toBeGreaterThan(0);
    // A function a migration's trigger or policy needed when it was created stays in that migration;
    // its later versions live in one definitions file, which is the live copy. Nothing else repeats.
    const isDefinition = (path: string) => /[\\/]definitions[\\/]/.test(path);
    const repeated = [...definedIn].filter(
      ([, files]) => files.length > 2 || (files.length === 2 && files.filter(isDefinition).length !== 1),
    );
    expect(repeated).toEqual([]);
  });

  it('declare only earlier contents they really replace', async () => {
    for (const file of await readMigrations()) {
      for (const replaced of file.replaces) expect(replaced).not.toBe(file.checksum);
    }
    const realtime = (await readMigrations()).filter((file) => file.layer === 'platform/realtime');
    expect(realtime.filter((file) => file.kind === 'migration').map((file) => file.replaces.length)).toEqual([
      1, 2, 1, 0,
    ]);
  });
});
