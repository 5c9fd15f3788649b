import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { databaseTestFiles } from './scripts/test-files.mjs';
import { PGLITE_PROCESS_FLAGS } from './tests/support/pglite-process-flags.ts';

/**
 * Test tiers (see docs/testing.md):
 * - unit: beside the code (server/**, web/src/**, scripts/**), no server, no database;
 * - smoke: the server's bundle started as `npm start` starts it, on each Node.js line (decision 163);
 * - integration:pglite / integration:postgres: the real server on a real database. Every file runs on
 *   PGlite; only files marked `// @databases: both — <reason>` run on PostgreSQL too (decision 164).
 *   The PostgreSQL tier runs when TEST_PG_URL names a server to create databases on (.ci/run sets it).
 */
const ROOT = dirname(fileURLToPath(import.meta.url));

const setupFiles = ['tests/support/count-assertions.ts'];

const integration = (database: 'pglite' | 'postgres') => ({
  test: {
    name: `integration:${database}`,
    include:
      database === 'pglite'
        ? ['tests/integration/**/*.test.ts', 'tests/compat/**/*.test.ts']
        : databaseTestFiles(ROOT)
            .filter((file) => file.both)
            .map((file) => file.path),
    env: { TEST_DB: database, HG_PROJECT: `integration:${database}` },
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles,
    pool: 'forks' as const,
    // Without V8's memory protection keys (tests/support/pglite-process-flags.ts, decision 245).
    execArgv: PGLITE_PROCESS_FLAGS,
    testTimeout: 30_000,
    // Compat files start the server as a process (decision 091): on a loaded machine that takes a while.
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    // The failure reporter names what failed at the end of `npm test`'s summary (scripts/test.mjs).
    reporters: ['default', './tests/support/failure-reporter.ts'],
    // Integration files mostly wait — on their server, the database, a timer — so one worker per core
    // (Vitest's default leaves one core out) keeps the machine busy (decision 164).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
          env: { HG_PROJECT: 'unit' },
          setupFiles,
        },
      },
      {
        test: {
          name: 'smoke',
          include: ['tests/smoke/**/*.test.ts'],
          env: { HG_PROJECT: 'smoke' },
          globalSetup: ['tests/smoke/global-setup.ts'],
          setupFiles,
          pool: 'forks' as const,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      integration('pglite'),
      ...(process.env.TEST_PG_URL ? [integration('postgres')] : []),
    ],
  },
});
