/**
 * Image transformation (issue 37, decision 228): a 2,000 × 2,000 JPEG rendered to a 400 × 400 WebP
 * through `/storage/v1/render/image/public/…`, measured
 *  1. cold — the first rendering of each of `cold` object versions (decode, resize, encode, keep);
 *  2. cached — `cached` requests for one kept rendition, one after the other;
 *  3. under load — 200 requests at once, each a size not rendered before (so none is cached): what each
 *     got (rendered, or 429 "busy" with Retry-After from the bounded queue), the server's memory growth over the burst,
 *     and whether `/health` kept answering (polled every 50 ms during it).
 * The server runs as its own process (bench/storage-child.ts), so memory and CPU are its alone.
 * Aims (issue 37): cached p95 ≤ 20 ms; no request over 256 MB; the server keeps answering /health.
 * Run: npx tsx bench/image-transform.ts [cold=30] [cached=200]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startChild } from './storage-child-process.ts';
import { table } from './support.ts';

const COLD = Number(process.argv[2] ?? 30);
const CACHED = Number(process.argv[3] ?? 200);
const BURST = 200;
const MB = 1024 * 1024;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

console.log(
  `load average at start: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);

// A photo-like source: noise softened by a blur, so the JPEG has the entropy of a real picture.
const source = await sharp({
  create: {
    width: 2000,
    height: 2000,
    channels: 3,
    background: '#808080',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .blur(1.2)
  .jpeg({ quality: 85 })
  .toBuffer();
console.log(`source: 2000 × 2000 JPEG, ${(source.length / MB).toFixed(2)} MB`);

const scratch = await mkdtemp(join(tmpdir(), 'highgrade-bench-render-'));
const server = await startChild('server', { DATA_DIR: join(scratch, 'data'), LOG_LEVEL: 'warn' });
const auth = { apikey: server.serviceRoleKey ?? '', authorization: `Bearer ${server.serviceRoleKey}` };

async function renderOnce(name: string, size = 400): Promise<{ status: number; ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(
    `${server.url}/storage/v1/render/image/public/bench/${name}?width=${size}&height=${size}&format=webp`,
  );
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, ms: performance.now() - started, bytes: body.length };
}

try {
  const created = await fetch(`${server.url}/storage/v1/bucket`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'bench', name: 'bench', public: true }),
  });
  if (!created.ok) throw new Error(`could not create the bucket: ${await created.text()}`);
  const names = Array.from({ length: COLD }, (_, index) => `photo-${index}.jpg`);
  for (const name of names) {
    const put = await fetch(`${server.url}/storage/v1/object/bench/${name}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/jpeg' },
      body: new Uint8Array(source),
    });
    if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
  }

  // The answer is what was asked for.
  const check = await fetch(
    `${server.url}/storage/v1/render/image/public/bench/${names[0]}?width=400&height=400&format=webp`,
  );
  const rendered = await sharp(Buffer.from(await check.arrayBuffer())).metadata();
  if (
    check.status !== 200 ||
    rendered.format !== 'webp' ||
    rendered.width !== 400 ||
    rendered.height !== 400
  ) {
    throw new Error(
      `unexpected rendition: ${check.status} ${rendered.format} ${rendered.width}×${rendered.height}`,
    );
  }

  // 1. Cold: each object's first rendering (object 0 was rendered by the check: a warm-up, left out).
  const cold: number[] = [];
  for (const name of names.slice(1)) {
    const result = await renderOnce(name);
    if (result.status !== 200) throw new Error(`cold rendering answered ${result.status}`);
    cold.push(result.ms);
  }

  // 2. Cached: the kept rendition of object 0, again and again.
  const cached: number[] = [];
  for (let run = 0; run < CACHED; run++) {
    const result = await renderOnce(names[0] as string);
    if (result.status !== 200) throw new Error(`cached rendering answered ${result.status}`);
    cached.push(result.ms);
  }

  // 3. A burst of 200 sizes never rendered before, with /health polled throughout.
  await server.ask('baseline');
  const health: number[] = [];
  let healthFailures = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      try {
        const response = await fetch(`${server.url}/health`);
        await response.arrayBuffer();
        if (!response.ok) healthFailures += 1;
      } catch {
        healthFailures += 1;
      }
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const burstStarted = performance.now();
  const burst = await Promise.all(
    Array.from({ length: BURST }, (_, index) => renderOnce(names[index % COLD] as string, 401 + index)),
  );
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  polling = false;
  await poller;
  const growth = await server.ask('peak');
  const served = burst.filter((result) => result.status === 200);
  const busy = burst.filter((result) => result.status === 429);
  const other = burst.length - served.length - busy.length;
  const statuses = Object.entries(
    burst.reduce<Record<number, number>>((counts, result) => {
      counts[result.status] = (counts[result.status] ?? 0) + 1;
      return counts;
    }, {}),
  )
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');

  console.log(`\n2000 × 2000 JPEG → 400 × 400 WebP (${COLD - 1} cold, ${CACHED} cached, sequential)`);
  table([
    {
      case: 'cold (rendered and kept)',
      n: cold.length,
      p50: ms(percentile(cold, 50)),
      p95: ms(percentile(cold, 95)),
    },
    { case: 'cached', n: cached.length, p50: ms(percentile(cached, 50)), p95: ms(percentile(cached, 95)) },
  ]);
  console.log(
    `\n${BURST} requests at once, each a new size (${burstSeconds.toFixed(1)} s; answers ${statuses})`,
  );
  table([
    {
      rendered: served.length,
      'busy (429)': busy.length,
      other,
      'rendered p50': ms(
        percentile(
          served.map((r) => r.ms),
          50,
        ),
      ),
      'rendered p95': ms(
        percentile(
          served.map((r) => r.ms),
          95,
        ),
      ),
      'busy p95':
        busy.length > 0
          ? ms(
              percentile(
                busy.map((r) => r.ms),
                95,
              ),
            )
          : '—',
      'RSS growth (peak)': `${((growth.rss ?? 0) / MB).toFixed(1)} MB`,
      '/health answers': `${health.length - healthFailures}/${health.length}`,
      '/health p95': ms(percentile(health, 95)),
      '/health max': ms(Math.max(...health)),
    },
  ]);
} finally {
  await server.stop();
  await rm(scratch, { recursive: true, force: true });
}
