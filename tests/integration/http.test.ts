import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '#server/web-build.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';

let server: TestServer;
const METRICS_TOKEN = 'metrics-token-for-the-http-test';
beforeAll(async () => {
  server = await startTestServer({
    SITE_NAME: 'High</script><script>alert(1)</script>Grade',
    METRICS_TOKEN: METRICS_TOKEN,
  });
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });

function appConfig(html: string): Record<string, unknown> {
  const match = /<script id="app-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match?.[1]) throw new Error('no app-config block in the page');
  return JSON.parse(match[1]);
}

describe('GET /health', () => {
  it('answers 200 with status and database mode', async () => {
    const response = await get('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      database: testDatabase() === 'postgres' ? 'postgres' : 'embedded',
    });
  });
});

describe('GET /ready', () => {
  it('answers 200 while the database answers and the listening connection is open (decision 177)', async () => {
    const response = await get('/ready');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });
});

/** The samples of a Prometheus text exposition: name, labels and value per line. */
function parseExposition(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

describe('GET /metrics (decision 177)', () => {
  it('is refused without the token, or with another', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not-the-token' },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const response = await get('/metrics', headers);
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain('highgrade_');
    }
  });

  it('counts requests by service, route and status with latencies, and reads the database, realtime, jobs and mail', async () => {
    // Two mails the product's database queued, claimed by a sender moments ago (so not sent while this
    // reads): the queue's depth is read from the database, whichever process will send them.
    await server.db.query(
      `insert into private.mail_queue (to_email, type, subject, body, claimed_at)
       select 'queued-' || n || '@example.com', 'booking_status', 'Queued', 'Waiting to be sent.', now()
       from generate_series(1, 2) n`,
    );
    expect((await get('/health')).status).toBe(200);
    expect((await get('/rest/v1/no_such_table', { apikey: server.anonKey })).status).toBe(404);
    const response = await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(await response.text());
    const one = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (sample) =>
          sample.name === name &&
          Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      );
    expect(
      one('highgrade_http_requests_total', { service: 'server', route: '/health', status: '200' })?.value,
    ).toBeGreaterThanOrEqual(1);
    const rest = one('highgrade_http_requests_total', { service: 'rest', status: '404' });
    expect(rest?.labels.route).toMatch(/^\/rest\/v1\//);
    expect(
      one('highgrade_http_request_duration_seconds_bucket', { route: '/health', status: '200', le: '+Inf' })
        ?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(
      one('highgrade_http_request_duration_seconds_count', { route: '/health' })?.value,
    ).toBeGreaterThanOrEqual(1);
    const capacity = one('highgrade_db_connections')?.value;
    expect(capacity).toBeGreaterThanOrEqual(1);
    expect(one('highgrade_db_connections_in_use')?.value).toBeLessThanOrEqual(capacity as number);
    expect(one('highgrade_db_admission_waiting')?.value).toBeGreaterThanOrEqual(0);
    expect(one('highgrade_db_admission_wait_seconds_count')).toBeDefined();
    expect(one('highgrade_db_admission_refused_total')).toBeDefined();
    expect(one('highgrade_pglite_worker_restarts')?.value).toBe(0);
    expect(one('highgrade_db_listener_connected')?.value).toBe(1);
    expect(one('highgrade_realtime_connections')?.value).toBeGreaterThanOrEqual(0);
    expect(one('highgrade_realtime_channels')?.value).toBeGreaterThanOrEqual(0);
    expect(one('highgrade_realtime_delivery_lag_seconds')?.value).toBeGreaterThanOrEqual(0);
    expect(one('highgrade_mail_queue_depth')?.value).toBeGreaterThanOrEqual(0);
    expect(one('highgrade_product_mail_queue_depth')?.value).toBeGreaterThanOrEqual(2);
    expect(one('highgrade_realtime_delivery_seconds_count')).toBeDefined();
    // Jobs that run at start have run (or been skipped for a lease held elsewhere) by now.
    expect(samples.some((sample) => sample.name === 'highgrade_job_runs_total' && sample.value >= 1)).toBe(
      true,
    );
  });
});

describe('the web app', () => {
  it.each(['/', '/news', '/market-index', '/profile?tab=privacy', '/auth?tab=signup', '/no/such/page'])(
    '%s serves the app with its run-time configuration',
    async (path) => {
      const response = await get(path, { accept: 'text/html' });
      // An address that is no page gets the app (which says so) with a 404 for crawlers.
      expect(response.status).toBe(path === '/no/such/page' ? 404 : 200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain('<div id="root"');
      const config = appConfig(html);
      expect(config).toMatchObject({ anonKey: server.anonKey, supabaseUrl: null });
      expect(config.siteName).toBe('High</script><script>alert(1)</script>Grade');
      expect(html).not.toContain('<script>alert(1)');
    },
  );

  it.each([
    ['/', 'The trusted hub for the'],
    ['/news', '>News</h1>'],
    ['/market-index', '>Market Index</h1>'],
    ['/pass-or-gas', '>Pass or Gas</h1>'],
    ['/brand-directory', '>Brand Directory</h1>'],
    ['/auth', 'Sign in to access premium cannabis marketplace'],
  ])("%s is sent prerendered (decision 157), with the deployment's name escaped", async (path, text) => {
    const response = await get(path, { accept: 'text/html' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<div id="root" data-prerendered="${path}"`);
    expect(html).toContain(text);
    // The site name is text in the page: escaped, never markup, and no placeholder is left.
    expect(html).toContain('High&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;Grade');
    expect(html).not.toContain('__HG_');
    expect(html).not.toContain('<script>alert(1)');
    // Nobody is signed in at build time: a visitor's header, the same for everyone.
    expect(html).toContain('>Sign In</button>');
    expect(appConfig(html)).toMatchObject({ anonKey: server.anonKey });
  });

  it.each(['/', '/news', '/auth?tab=signup', '/no/such/page'])(
    '%s holds the age gate for a first visit only (decision 161), named for the deployment',
    async (path) => {
      const first = await get(path, { accept: 'text/html' });
      expect(first.headers.get('vary')).toMatch(/\bCookie\b/i);
      const html = await first.text();
      expect(html).toContain('<script src="/age-gate.js"></script>');
      expect(html).toMatch(/<dialog id="age-gate" role="alertdialog"[^>]*>[\s\S]*Are you 21 or older\?/);
      expect(html).toContain('Leave High&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;Grade</a>');
      expect(html).not.toContain('__HG_');
      expect(html).not.toContain('<!--age-gate-->');

      for (const cookie of ['hg_age_verified=1', 'theme=dark; hg_age_verified=1']) {
        const answered = await get(path, { accept: 'text/html', cookie });
        expect(answered.headers.get('vary')).toMatch(/\bCookie\b/i);
        const text = await answered.text();
        expect(text, cookie).not.toContain('age-gate');
        expect(text).toContain('<div id="root"');
      }
      // Any other value is no answer.
      expect(await (await get(path, { cookie: 'hg_age_verified=0' })).text()).toContain('id="age-gate"');
    },
  );

  it("serves the age gate's script", async () => {
    const response = await get('/age-gate.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toContain("document.getElementById('age-gate')");
    // It works with the markup each page brings, so it is never older than the page.
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the empty app for a prerendered path with a query string, and for other pages', async () => {
    for (const path of ['/news?category=Team', '/auth?tab=signup', '/profile', '/news/']) {
      const html = await (await get(path, { accept: 'text/html' })).text();
      expect(html, path).toContain('<div id="root"></div>');
    }
  });

  it("allows a prerendered page's own style attributes by hash, and nothing inline besides", async () => {
    const auth = (await get('/auth')).headers.get('content-security-policy') ?? '';
    const styles = /style-src ([^;]*)/.exec(auth)?.[1] ?? '';
    expect(styles).toMatch(/^'self' 'nonce-[^']+' 'unsafe-hashes'( 'sha256-[A-Za-z0-9+/=]+')+$/);
    expect(auth).not.toMatch(/unsafe-(inline|eval)/);
    const news = (await get('/news')).headers.get('content-security-policy') ?? '';
    expect(news).not.toContain('unsafe-hashes');
  });

  it('marks the page when no social sign-in is configured (the sign-in form keeps no room for it)', async () => {
    for (const path of ['/auth', '/auth?tab=signup']) {
      const html = await (await get(path)).text();
      expect(html, path).toContain('<html data-social-sign-in="none" lang="en">');
    }
  });

  it('never hands a secret to the browser', async () => {
    for (const path of ['/', '/news', '/auth', '/app-config.json']) {
      const body = await (await get(path)).text();
      expect(body).not.toContain(server.serviceRoleKey);
      expect(body).not.toContain(server.jwtSecret);
    }
    expect(await (await get('/app-config.json')).json()).toMatchObject({ anonKey: server.anonKey });
  });

  it('sends a strict Content-Security-Policy with a fresh style nonce per page', async () => {
    const [a, b] = await Promise.all([get('/'), get('/')]);
    const policy = a.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-(inline|eval)/);
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(appConfig(await a.text()).styleNonce).toBe(nonce);
    expect(b.headers.get('content-security-policy')).not.toBe(policy);
  });

  it('sends the usual hardening headers', async () => {
    const response = await get('/');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
  });

  it('serves hashed assets pre-compressed with a long cache lifetime', async () => {
    const assets = await readdir(join(process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST, 'assets'));
    const script = assets.find((name) => name.endsWith('.js') && assets.includes(`${name}.br`));
    expect(script, 'a pre-compressed script in web/dist/assets').toBeTruthy();
    for (const encoding of ['br', 'gzip']) {
      const response = await get(`/assets/${script}`, { 'accept-encoding': encoding });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect((await response.text()).length).toBeGreaterThan(0);
    }
  });

  it('serves a production build (no development React, no dev JSX runtime)', async () => {
    // Vitest runs with NODE_ENV=test; the build it triggers must still be a production one.
    const dir = join(process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST, 'assets');
    const scripts = (await readdir(dir)).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const text = await readFile(join(dir, name), 'utf8');
      expect(text, name).not.toContain('jsxDEV');
      expect(text, name).not.toContain('react-dom.development');
    }
  });

  it('answers a missing file with 404, not the app', async () => {
    for (const path of ['/assets/gone-1234.js', '/missing.png', '/index.html.br']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('<div id="root">');
    }
  });

  it('answers HEAD for pages', async () => {
    const response = await fetch(`${server.url}/news`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('service mount points', () => {
  it.each([
    ['/rest/v1/no/such/thing', (body: Record<string, unknown>) => expect(body).toHaveProperty('message')],
    ['/auth/v1/no-such-endpoint', (body: Record<string, unknown>) => expect(body).toHaveProperty('msg')],
    [
      '/storage/v1/no-such-endpoint',
      (body: Record<string, unknown>) => expect(body).toHaveProperty('statusCode', '404'),
    ],
    [
      '/realtime/v1/no-such-endpoint',
      (body: Record<string, unknown>) => expect(body).toHaveProperty('message'),
    ],
    [
      '/functions/v1/no-such-function',
      (body: Record<string, unknown>) => expect(body).toHaveProperty('message'),
    ],
  ])('%s answers a JSON 404 in its own format, never the app', async (path, check) => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await fetch(`${server.url}${path}`, { method, headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      check((await response.json()) as Record<string, unknown>);
    }
  });

  it('answers CORS preflights for the APIs', async () => {
    const response = await fetch(`${server.url}/rest/v1/profiles`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey, authorization, content-type, prefer',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toContain('apikey');
  });

  it('keeps the web app same-origin (no CORS on pages)', async () => {
    const response = await get('/', { origin: 'https://elsewhere.example' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
