import { defineConfig } from 'vitest/config';

/**
 * Test tiers (see docs/testing.md):
 * - unit: beside the code (server/**, web/src/**), no server, no database;
 * - integration:pglite / integration:postgres: the real server on a real database. The PostgreSQL
 *   tier runs when TEST_PG_URL names a server to create fresh databases on (.ci/run sets it).
 */
const integration = (database: 'pglite' | 'postgres') => ({
  test: {
    name: `integration:${database}`,
    include: ['tests/integration/**/*.test.ts', 'tests/compat/**/*.test.ts'],
    env: { TEST_DB: database },
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks' as const,
    testTimeout: 30_000,
    // Compat files start the server as a process (decision 091): on a loaded machine that takes a while.
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      integration('pglite'),
      ...(process.env.TEST_PG_URL ? [integration('postgres')] : []),
    ],
  },
});
