/**
 * Lighthouse (12.8, the line that runs on Node 20) on the public pages, as a phone on a slow network
 * sees them: mobile form factor, simulated throttling (Lighthouse's defaults), Debian's Chromium through
 * chrome-launcher. Each page twice: a first visit (no age cookie: the age gate shows) and a returning
 * visitor (cookie `hg_age_verified=1` set in the browser, where the app reads it). Prints the four category scores, LCP, TBT and CLS, and the
 * home page's JavaScript as transferred (gzip). Aims (issue 21): performance ≥ 95, the rest 100,
 * CLS ≤ 0.02, home JS ≤ 150 KB gzipped. The server runs with a fresh DATA_DIR (sample content on) and
 * SEARCH_INDEXING=true (its address is local, which would mark every page noindex, decision 186); a
 * real brand and product are added through the data API (samples are noindex) and their pages measured
 * too (issue 39: SEO 100 on a brand and a product page).
 * Run: npx tsx bench/lighthouse.ts [path ...]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import WebSocket from 'ws';
import { ensureWebBuild } from '#server/web-build.ts';
import { startProcess } from './support.ts';

await ensureWebBuild(console.log);
const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-lighthouse-'));
const server = await startProcess({ DATA_DIR: dataDir, SEARCH_INDEXING: 'true' });

/** A real (not sample) brand and product, made with the service key, for their detail pages. */
async function detailPages(): Promise<string[]> {
  const key = (JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as { service_role_key: string })
    .service_role_key;
  const insert = async (table: string, row: object) => {
    const response = await fetch(`${server.url}/rest/v1/${table}`, {
      method: 'POST',
      headers: {
        apikey: key,
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
      body: JSON.stringify(row),
    });
    if (!response.ok) throw new Error(`insert into ${table}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }[])[0]?.id ?? '';
  };
  const brandId = await insert('brands', {
    name: 'Lighthouse Farms',
    slug: 'lighthouse-farms',
    description: 'Sun-grown flower from the coast, measured by the Lighthouse benchmark.',
    city: 'Oakland',
    states: ['CA'],
  });
  const productId = await insert('products', {
    name: 'Lighthouse Kush',
    category: 'Flower',
    strain_type: 'hybrid',
    brand_id: brandId,
    description: 'A product made for the Lighthouse benchmark.',
  });
  return ['/brand-directory/lighthouse-farms', `/pass-or-gas/${productId}`];
}

const PAGES = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['/', '/news', '/pass-or-gas', '/market-index', '/brand-directory', '/auth', ...(await detailPages())];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});

interface Row {
  page: string;
  cookie: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptKB: number;
}

type Details = { items?: Record<string, unknown>[] };

/**
 * LIGHTHOUSE_DETAILS=1: what moved (layout shifts), what the LCP element was, with its phases, and the
 * main thread's long tasks (what TBT counts: each task's time over 50 ms, after the first paint).
 */
function printDetails(
  label: string,
  lhr: { audits: Record<string, { details?: unknown; numericValue?: number }> },
) {
  const snippet = (item: Record<string, unknown>) =>
    String((item.node as { snippet?: string; selector?: string } | undefined)?.snippet ?? '').slice(0, 160);
  for (const item of (lhr.audits['layout-shifts']?.details as Details | undefined)?.items ?? []) {
    console.log(`${label} shift ${Number(item.score).toFixed(3)}: ${snippet(item)}`);
  }
  for (const item of (lhr.audits['long-tasks']?.details as Details | undefined)?.items ?? []) {
    const url = String(item.url ?? '').replace(/^https?:\/\/[^/]+/, '');
    console.log(
      `${label} long task at ${Math.round(Number(item.startTime))} ms: ${Math.round(Number(item.duration))} ms ${url}`,
    );
  }
  const requests = (lhr.audits['network-requests']?.details as Details | undefined)?.items ?? [];
  const gate = requests.some((item) => /\/age-gate\.js$/.test(String(item.url)));
  console.log(`${label} age gate ${gate ? 'loaded' : 'not loaded'}`);
  const fcp = lhr.audits['first-contentful-paint']?.numericValue;
  console.log(
    `${label} FCP ${Math.round(Number(fcp))} ms, speed index ${Math.round(Number(lhr.audits['speed-index']?.numericValue))} ms`,
  );
  const lcp = (lhr.audits['largest-contentful-paint-element']?.details as Details | undefined)?.items ?? [];
  for (const table of lcp) {
    const rows = (table as Details).items ?? [];
    for (const row of rows) {
      if (row.node) console.log(`${label} LCP element: ${snippet(row)}`);
      else if (row.phase)
        console.log(`${label} LCP ${String(row.phase)}: ${Math.round(Number(row.timing))} ms`);
    }
  }
}

/**
 * Sets (or clears) the age cookie in the browser itself, over the DevTools protocol: the app reads
 * `document.cookie`, which a Cookie request header (Lighthouse's extraHeaders) never reaches.
 * Lighthouse's storage reset leaves cookies alone.
 */
async function setAgeCookie(port: number, url: string, set: boolean): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const send = (id: number, method: string, params: object) =>
    new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; error?: { message: string } };
        if (message.id !== id) return;
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve();
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send(1, 'Storage.clearCookies', {});
    if (set) await send(2, 'Storage.setCookies', { cookies: [{ name: 'hg_age_verified', value: '1', url }] });
  } finally {
    socket.close();
  }
}

async function audit(path: string, cookie: boolean) {
  await setAgeCookie(chrome.port, server.url, cookie);
  const result = await lighthouse(
    `${server.url}${path}`,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      // LIGHTHOUSE_PROFILE=1: V8's sampling profiler in the trace (which functions ran), for
      // bench/lighthouse-tasks.ts. It slows the page a little: not for the figures.
      ...(process.env.LIGHTHOUSE_PROFILE === '1'
        ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' }
        : {}),
    },
    // Lighthouse's default config: mobile, simulated throttling.
    undefined,
  );
  if (!result) throw new Error(`no result for ${path}`);
  // LIGHTHOUSE_TRACE_DIR=dir: keeps each run's trace, for bench/lighthouse-tasks.ts.
  const traceDir = process.env.LIGHTHOUSE_TRACE_DIR;
  if (traceDir && !result.lhr.runtimeError) {
    await mkdir(traceDir, { recursive: true });
    const name = `${path.replace(/\W+/g, '_') || '_'}-${cookie ? 'cookie' : 'first'}-${Date.now()}.json`;
    await writeFile(join(traceDir, name), JSON.stringify(result.artifacts.Trace));
  }
  return result.lhr;
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100);
const rows: Row[] = [];
try {
  // Warm the server (first requests compile and cache), as a visitor would not see.
  for (const path of PAGES) await fetch(`${server.url}${path}`);
  for (const path of PAGES) {
    for (const cookie of [false, true]) {
      const label = `${path} (cookie ${cookie ? 'set' : 'not set'})`;
      // Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) whatever the page;
      // such a run is repeated once and said so.
      let lhr: Awaited<ReturnType<typeof audit>>;
      for (let attempt = 1; ; attempt++) {
        lhr = await audit(path, cookie);
        if (!lhr.runtimeError || attempt === 2) break;
        console.log(`${label} Lighthouse failed (${lhr.runtimeError.code}); repeating the run`);
      }
      if (lhr.runtimeError)
        console.log(`${label} Lighthouse failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const requests =
        (lhr.audits['network-requests']?.details as { items?: Record<string, unknown>[] })?.items ?? [];
      const scriptBytes = requests
        .filter((item) => item.resourceType === 'Script')
        .reduce((sum, item) => sum + Number(item.transferSize ?? 0), 0);
      rows.push({
        page: path,
        cookie: cookie ? 'set' : 'not set',
        performance: score(lhr.categories.performance?.score),
        accessibility: score(lhr.categories.accessibility?.score),
        bestPractices: score(lhr.categories['best-practices']?.score),
        seo: score(lhr.categories.seo?.score),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
        scriptKB: Number((scriptBytes / 1024).toFixed(1)),
      });
      const failing = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      if (failing.length) console.log(`${label} failing audits: ${failing.join(', ')}`);
      if (process.env.LIGHTHOUSE_DETAILS === '1') printDetails(label, lhr);
    }
  }
} finally {
  await chrome.kill();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

console.log(
  `\nload average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
console.log('| page | age cookie | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | JS KB (gz) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.page} | ${row.cookie} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.lcpMs} | ${row.tbtMs} | ${row.cls} | ${row.scriptKB} |`,
  );
}
