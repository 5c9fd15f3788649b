import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests drive Debian's Chromium (no browser downloads), its headless shell where installed. `tests/e2e/global-setup.ts` starts the
 * real server (as `npm start` runs it: `scripts/start.mjs`) on a fresh DATA_DIR and a free port unless
 * E2E_BASE_URL points at one that is already running.
 */
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Debian's `chromium-headless-shell` (the "old" headless Chromium, what Playwright itself runs headless)
 * when installed, else the full browser. Full Chromium in new-headless mode also runs its GPU process on
 * SwiftShader and renders its own toolbar (a `--top-chrome-webui` renderer) per browser: the same four
 * specs took 4 min 9 s with it and 2 min 36 s with the shell here, and the full tier's load fell with it
 * (decision 235).
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  // Three workers on the 2-core CI machine: a worker waits on its page and the server most of the time,
  // so two left a core idle (full tier 23 → 13 minutes, decision 164).
  workers: Number(process.env.PW_WORKERS ?? 3),
  // CI retries a failed test once; one that passes only then is listed as flaky in the report (docs/testing.md).
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  // The count reporter gives `npm test` the assertions and time of each spec (issue 38).
  reporter: [['list'], ['./tests/e2e/support/count-reporter.ts']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      testIgnore: /.*\.mobile\.spec\.ts/,
    },
    {
      name: 'mobile',
      use: { ...devices['Pixel 7'], channel: undefined },
      testMatch: /.*\.mobile\.spec\.ts/,
    },
  ],
});
