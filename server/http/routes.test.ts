import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.ts';

/** A file that reaches for the database, as a route of a service and as a domain module of it. */
const PROBE = `import { execute } from '../db.ts';
import type { Queryable } from '../../db/driver.ts';
export const probe = (db: { transaction(fn: () => void): void }, tx: Queryable) =>
  db.transaction(() => execute(tx.query('select 1')));
`;

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the lint rules of decision 088', () => {
  it('keep routes/ away from db.ts, the database driver, queries and transactions; the domain may use them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hg-lint-'));
    await cp(join(PROJECT_ROOT, 'biome.json'), join(dir, 'biome.json'));
    await cp(join(PROJECT_ROOT, 'biome'), join(dir, 'biome'), { recursive: true });
    await mkdir(join(dir, 'server/news/routes'), { recursive: true });
    await writeFile(join(dir, 'server/news/routes/list-articles.ts'), PROBE);
    await writeFile(
      join(dir, 'server/news/news.ts'),
      PROBE.replaceAll('../', './').replace('./db/', '../db/'),
    );
    const biome = join(PROJECT_ROOT, 'node_modules/.bin/biome');
    const { stdout } = await promisify(execFile)(
      biome,
      ['lint', '--vcs-enabled=false', '--reporter=json', 'server'],
      {
        cwd: dir,
      },
    ).catch((error: { stdout: string }) => error);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
    };
    const found = report.diagnostics.map((d) => `${d.location.path}:${d.location.start.line} ${d.category}`);
    expect(found.sort()).toEqual([
      'server/news/routes/list-articles.ts:1 lint/style/noRestrictedImports',
      'server/news/routes/list-articles.ts:2 lint/style/noRestrictedImports',
      'server/news/routes/list-articles.ts:4 plugin',
      'server/news/routes/list-articles.ts:4 plugin',
    ]);
  });
});
