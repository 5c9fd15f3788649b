import { describe, expect, it } from 'vitest';
import { MIGRATION_SOURCES, MigrationError, orderMigrationNames, readMigrations } from './migrate.ts';

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
});
