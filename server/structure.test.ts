import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's shape, checked (issue 38, decisions 088 and 231): every service and product area has
 * its skeleton, runs SQL only in its db files, and imports only downwards in the tower that
 * docs/architecture.md draws, without circles.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'server');

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** Server source files as paths relative to the project (`server/db/gate.ts`), tests aside. */
const FILES = filesUnder(SERVER).map((file) => relative(ROOT, file).replaceAll('\\', '/'));
const SOURCE = new Map(FILES.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));

const SERVICES = ['auth', 'rest', 'storage', 'realtime', 'functions'] as const;
const AREAS = readdirSync(join(SERVER, 'product')).filter((name) =>
  statSync(join(SERVER, 'product', name)).isDirectory(),
);

// ------------------------------------------------------------------------------------------------
// The tower (docs/architecture.md "The tower"): a file may import files of its own floor or below.
// ------------------------------------------------------------------------------------------------

const FOUNDATION = ['config', 'paths', 'operator-error', 'lazy', 'metrics', 'keys', 'data-dir', 'web-build'];
const REGISTRY = ['server/functions/functions.ts', 'server/functions/jobs.ts', 'server/functions/plugin.ts'];

/** The floor of a server file: 1 foundation … 7 start-up and commands. */
function floorOf(file: string): number {
  const [, top, rest] = /^server\/([^/]+)(?:\/(.*))?$/.exec(file) ?? [];
  if (rest === undefined) {
    const name = (top ?? '').replace(/\.ts$/, '');
    if (FOUNDATION.includes(name)) return 1;
    if (name === 'context' || name === 'jobs') return 3;
    if (name === 'app' || name === 'start' || name === 'main') return 7;
    throw new Error(
      `${file} has no floor: place it in the tower (server/structure.test.ts, docs/architecture.md)`,
    );
  }
  if (top === 'db') return 2;
  if (top === 'http' || top === 'mail' || top === 'seo') return 3;
  if (top === 'functions' && (REGISTRY.includes(file) || file.startsWith('server/functions/routes/')))
    return 6;
  if ((SERVICES as readonly string[]).includes(top as string)) return 4;
  if (top === 'product') return 5;
  // Operators' commands, and the backups they run against a live server (decision 215).
  if (top === 'cli' || top === 'backup') return 7;
  throw new Error(
    `${file} has no floor: place it in the tower (server/structure.test.ts, docs/architecture.md)`,
  );
}

interface Import {
  from: string;
  to: string;
  /** Erased at run time: `import type`, `export type`, or every name marked `type`. */
  typeOnly: boolean;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^;()]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function target(from: string, spec: string): string | undefined {
  if (spec.startsWith('#server/')) return `server/${spec.slice('#server/'.length)}`;
  if (!spec.startsWith('.')) return undefined;
  return normalize(join(dirname(from), spec)).replaceAll('\\', '/');
}

function importsOf(file: string): Import[] {
  const text = SOURCE.get(file) ?? '';
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    const to = target(file, spec);
    if (to?.startsWith('server/') && to.endsWith('.ts')) found.push({ from: file, to, typeOnly });
  };
  for (const match of text.matchAll(STATIC)) {
    const clause = match[3] ?? '';
    const names = /\{([^}]*)\}/.exec(clause)?.[1];
    const allTyped =
      names !== undefined &&
      !/^\s*\w+\s*,/.test(clause) &&
      names
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    add(match[4] as string, match[2] !== undefined || allTyped);
  }
  for (const match of text.matchAll(BARE)) add(match[1] as string, false);
  for (const match of text.matchAll(DYNAMIC)) add(match[1] as string, false);
  return found;
}

const IMPORTS = FILES.flatMap(importsOf);

function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[1] === 'product' ? `product/${parts[2]}` : (parts[1] as string);
}

/** What product code may import from a service: the doors the platform opens for it. */
const PRODUCT_DOORS = [
  'server/functions/platform.ts',
  'server/functions/http.ts',
  'server/functions/errors.ts',
];

/** The one file of a service that may reach into other services, for the product (decision 231). */
const SERVICE_DOORS = ['server/functions/platform.ts'];

// ------------------------------------------------------------------------------------------------
// SQL: a statement is run where a `.query(` or `.exec(` call (with or without a type argument) has
// a string or template literal as its first argument. Only db files run them: `db.ts`, `db/*.ts` of
// a service or area, and the driver layer `server/db/` itself.
// ------------------------------------------------------------------------------------------------

const RUNS_SQL = /\.(?:query|exec)\s*(?:<[^()]*?>)?\s*\(\s*['"`]/;

/** Known SQL outside db files, each with the reason it is still there. Shrink it; never grow it. */
const SQL_ELSEWHERE: Record<string, string> = {};

/** Imports that still run upward, each with its reason. Shrink it; never grow it. */
const UPWARD_ELSEWHERE: Record<string, string> = {};

/** Timers outside a jobs.ts, each with the reason. */
const TIMERS_ELSEWHERE: Record<string, string> = {};

function isDbFile(file: string): boolean {
  return file.startsWith('server/db/') || /\/db\.ts$/.test(file) || /\/db\/[^/]+\.ts$/.test(file);
}

describe('server structure', () => {
  it('places every server file in the tower', () => {
    for (const file of FILES) expect(() => floorOf(file), file).not.toThrow();
  });

  it('has no import that runs upward in the tower, but the one listed with its reason', () => {
    const upward = IMPORTS.filter((i) => floorOf(i.to) > floorOf(i.from))
      .map((i) => `${i.from} → ${i.to}`)
      .filter((edge) => !(edge in UPWARD_ELSEWHERE));
    expect(upward).toEqual([]);
  });

  it('keeps services apart: a service imports another only through functions/platform.ts', () => {
    const across = IMPORTS.filter(
      (i) =>
        floorOf(i.from) === 4 &&
        floorOf(i.to) === 4 &&
        folderOf(i.from) !== folderOf(i.to) &&
        !SERVICE_DOORS.includes(i.from),
    ).map((i) => `${i.from} → ${i.to}`);
    expect(across).toEqual([]);
  });

  it('lets product code use the platform only through the interfaces of functions/platform.ts (types only)', () => {
    const values = IMPORTS.filter(
      (i) => i.from.startsWith('server/product/') && i.to === 'server/functions/platform.ts' && !i.typeOnly,
    ).map((i) => i.from);
    expect(values).toEqual([]);
  });

  it('lets product code reach the services only through the doors they open for it', () => {
    const through = IMPORTS.filter(
      (i) => i.from.startsWith('server/product/') && floorOf(i.to) === 4 && !PRODUCT_DOORS.includes(i.to),
    ).map((i) => `${i.from} → ${i.to}`);
    expect(through).toEqual([]);
  });

  it('lets only the functions registry reach product code', () => {
    const into = IMPORTS.filter(
      (i) =>
        i.to.startsWith('server/product/') &&
        !i.from.startsWith('server/product/') &&
        floorOf(i.from) !== 6 &&
        floorOf(i.from) !== 7,
    ).map((i) => `${i.from} → ${i.to}`);
    expect(into).toEqual([]);
  });

  it('has no import circle except through type-only imports', () => {
    const graph = new Map<string, string[]>(FILES.map((file) => [file, []]));
    for (const i of IMPORTS) if (!i.typeOnly) graph.get(i.from)?.push(i.to);
    // Tarjan's strongly connected components: a component of more than one file is a circle.
    let index = 0;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string) => {
      order.set(file, index);
      low.set(file, index);
      index += 1;
      stack.push(file);
      onStack.add(file);
      for (const next of graph.get(file) ?? []) {
        if (!order.has(next)) {
          visit(next);
          low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
        } else if (onStack.has(next)) {
          low.set(file, Math.min(low.get(file) as number, order.get(next) as number));
        }
      }
      if (low.get(file) === order.get(file)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const file of FILES) if (!order.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it.each(SERVICES)('gives the service %s its skeleton', (service) => {
    const dir = join(SERVER, service);
    const missing = [
      'plugin.ts',
      `${service}.ts`,
      'db.ts',
      'errors.ts',
      'routes/index.ts',
      'architecture.md',
    ].filter((file) => !existsSync(join(dir, file)));
    // HTTP helpers: one http.ts, or an http/ folder when they outgrew one file (storage).
    if (!existsSync(join(dir, 'http.ts')) && !existsSync(join(dir, 'http'))) missing.push('http.ts');
    expect(missing).toEqual([]);
  });

  it.each(AREAS)('gives the product area %s its skeleton', (area) => {
    const dir = join(SERVER, 'product', area);
    const missing = ['db.ts', 'architecture.md'].filter((file) => !existsSync(join(dir, file)));
    // Routes and jobs when the area has them: one file per function, listed in routes/index.ts.
    if (existsSync(join(dir, 'routes')) && !existsSync(join(dir, 'routes/index.ts')))
      missing.push('routes/index.ts');
    expect(missing).toEqual([]);
  });

  it('keeps timed work in jobs.ts', () => {
    const timers = FILES.filter(
      (file) =>
        (floorOf(file) === 4 || floorOf(file) === 5) &&
        !file.endsWith('/jobs.ts') &&
        /\bsetInterval\(/.test(SOURCE.get(file) ?? '') &&
        !(file in TIMERS_ELSEWHERE),
    );
    expect(timers).toEqual([]);
    const jobsFiles = FILES.filter((file) => file.endsWith('/jobs.ts') && floorOf(file) === 5);
    for (const file of jobsFiles) expect(SOURCE.get(file), file).toMatch(/export const JOBS\b/);
  });

  it('runs SQL only in db files', () => {
    const outside = FILES.filter(
      (file) => !isDbFile(file) && RUNS_SQL.test(SOURCE.get(file) ?? '') && !(file in SQL_ELSEWHERE),
    );
    expect(outside).toEqual([]);
  });

  it('finds SQL where it is (the detector works)', () => {
    expect(RUNS_SQL.test("await tx.query('select 1')")).toBe(true);
    expect(RUNS_SQL.test('await db.query<{ n: number }>(\n  `select 1 as n`')).toBe(true);
    expect(RUNS_SQL.test("await db.exec('vacuum')")).toBe(true);
    expect(RUNS_SQL.test('const match = PATTERN.exec(value)')).toBe(false);
    expect(RUNS_SQL.test('await tx.query(sql, params)')).toBe(false);
    for (const file of Object.keys({ ...SQL_ELSEWHERE, ...TIMERS_ELSEWHERE })) {
      expect(existsSync(join(ROOT, file)), `${file} is listed as an exception but no longer exists`).toBe(
        true,
      );
    }
  });
});
