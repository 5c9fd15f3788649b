/**
 * The JavaScript a first visit makes the browser load, gzipped: opens each route in Chromium, waits
 * for the network to settle, and sums the gzipped size of every script requested, in three steps:
 * - "to hydrate": what loads before the app's first commit (the `highgrade:app-ready` mark): on a
 *   prerendered page (decision 157) the code that takes the painted HTML over; on another page the
 *   layout's first render. The paint of a prerendered page itself needs no JavaScript.
 * - "first render": what loads before the app starts its deferred work (the `highgrade:deferred-load`
 *   mark, set when the browser is idle after the first render). Since decision 157 a page's data
 *   queries start at hydration, so supabase-js (which they load) usually falls before this mark.
 * - "after idle": everything.
 * Routes that need the client at once (/auth) start loading it as soon as their page has rendered.
 * Budget: 150 KB for the home route, signed out and signed in, counted to hydrate.
 * Run: npx tsx bench/bundle.ts
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ensureWebBuild, WEB_DIST } from '#server/web-build.ts';
import { startProcess } from './support.ts';

const BUDGET_KB = 150;
await ensureWebBuild(console.log);
const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
const server = await startProcess({ DATA_DIR: dataDir });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

/** A member's stored session, as supabase-js keeps it in localStorage. */
async function memberSession(): Promise<{ key: string; value: string }> {
  const keys = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as {
    anon_key: string;
    service_role_key: string;
  };
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  };
  const admin = createClient(server.url, keys.service_role_key, options);
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password 1';
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  const client = createClient(server.url, keys.anon_key, options);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error('no session');
  return {
    key: `sb-${new URL(server.url).hostname.split('.')[0]}-auth-token`,
    value: JSON.stringify(data.session),
  };
}

interface Visit {
  label: string;
  hydrateKB: number;
  firstRenderKB: number;
  afterIdleKB: number;
  scripts: { script: string; gzipKB: number; when: string }[];
}

const gzipCache = new Map<string, number>();
async function gzipSize(path: string): Promise<number> {
  let size = gzipCache.get(path);
  if (size === undefined) {
    size = gzipSync(await readFile(join(WEB_DIST, path)), { level: 9 }).length;
    gzipCache.set(path, size);
  }
  return size;
}

async function visit(route: string, session?: { key: string; value: string }): Promise<Visit> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'hg_age_verified', value: '1', url: server.url }]);
  if (session) {
    await context.addInitScript(
      `localStorage.setItem(${JSON.stringify(session.key)}, ${JSON.stringify(session.value)})`,
    );
  }
  const page = await context.newPage();
  await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' });
  // A prerendered page starts its code only after the first paint (decision 157), so the network can
  // be idle before then: wait for the app's deferred work, then until no script arrives for a second.
  await page.waitForFunction(() => performance.getEntriesByName('highgrade:deferred-load').length > 0, null, {
    timeout: 30_000,
  });
  for (let count = -1; ; ) {
    const now = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (now === count) break;
    count = now;
    await page.waitForTimeout(1000);
  }
  const entries = await page.evaluate(() => {
    const ready = performance.getEntriesByName('highgrade:app-ready')[0]?.startTime ?? Infinity;
    const mark = performance.getEntriesByName('highgrade:deferred-load')[0]?.startTime ?? Infinity;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({
        path: new URL(entry.name).pathname,
        beforeReady: entry.startTime < ready,
        beforeIdle: entry.startTime < mark,
      }));
  });
  await context.close();
  const seen = new Set<string>();
  let hydrate = 0;
  let first = 0;
  let total = 0;
  const scripts: Visit['scripts'] = [];
  for (const { path, beforeReady, beforeIdle } of entries) {
    if (seen.has(path)) continue;
    seen.add(path);
    const size = await gzipSize(path);
    total += size;
    if (beforeReady) hydrate += size;
    if (beforeIdle) first += size;
    scripts.push({
      script: path,
      gzipKB: Math.round(size / 102.4) / 10,
      when: beforeReady ? 'to hydrate' : beforeIdle ? 'first render' : 'after idle',
    });
  }
  return {
    label: `${route}${session ? ' (signed in)' : ''}`,
    hydrateKB: Math.round(hydrate / 102.4) / 10,
    firstRenderKB: Math.round(first / 102.4) / 10,
    afterIdleKB: Math.round(total / 102.4) / 10,
    scripts,
  };
}

try {
  const session = await memberSession();
  const visits: Visit[] = [];
  for (const route of ['/', '/news', '/profile', '/auth']) visits.push(await visit(route));
  visits.push(await visit('/', session));
  visits.push(await visit('/profile', session));

  // BENCH_SHOW=<row> lists the scripts of another visit (4: home, signed in).
  const home = visits[Number(process.env.BENCH_SHOW ?? 0)];
  if (home) console.table(home.scripts);
  console.table(
    visits.map(({ label, hydrateKB, firstRenderKB, afterIdleKB }) => ({
      route: label,
      'to hydrate KB': hydrateKB,
      'first render KB': firstRenderKB,
      'after idle KB': afterIdleKB,
    })),
  );
  for (const visit of visits.filter((v) => v.label.startsWith('/ ') || v.label === '/')) {
    console.log(
      `home route${visit.label.includes('signed in') ? ', signed in' : ''}: ${visit.hydrateKB} KB gzipped JS to hydrate (budget ${BUDGET_KB} KB), ${visit.firstRenderKB} KB before idle, ${visit.afterIdleKB} KB after idle`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
