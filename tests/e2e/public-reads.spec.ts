import { randomBytes } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { adminClient, openSignedIn, type ServerInfo } from './support/api.ts';

const FIRST_LOAD = { timeout: 30_000 };

/**
 * Decision 158: a visitor's page reads its data through PostgREST's own client (@supabase/postgrest-js)
 * with the anon key; supabase-js (auth, realtime) loads once the browser is idle. A member's reads go
 * through supabase-js and carry their token.
 */

/** A product, so the Pass or Gas list has something to show. */
async function addProduct(server: ServerInfo): Promise<string> {
  const name = `Public Read ${randomBytes(3).toString('hex')}`;
  const { error } = await adminClient(server)
    .from('products')
    .insert({ name, category: 'Flower', description: 'A product made for a browser test.' });
  expect(error).toBeNull();
  return name;
}

/** The anon key the server gives the app (its run-time configuration). */
async function appAnonKey(server: ServerInfo): Promise<string> {
  const config = (await (await fetch(`${server.url}/app-config.json`)).json()) as { anonKey: string };
  expect(config.anonKey).toBeTruthy();
  return config.anonKey;
}

/** The page's request for the Pass or Gas list (the view the list reads). */
function isProductListRead(request: Request): boolean {
  return request.method() === 'GET' && new URL(request.url()).pathname === '/rest/v1/product_rankings';
}

/** When the supabase-js chunk was requested and when the app's deferred work began (performance marks). */
async function supabaseTiming(page: Page): Promise<{ chunk: number | null; idle: number | null }> {
  return page.evaluate(() => {
    const chunk = performance
      .getEntriesByType('resource')
      .find((entry) => /\/assets\/supabase-js-[^/]+\.js$/.test(entry.name));
    const idle = performance.getEntriesByName('highgrade:deferred-load')[0];
    return { chunk: chunk ? chunk.startTime : null, idle: idle ? idle.startTime : null };
  });
}

test('a visitor gets the data without supabase-js, which loads once the browser is idle', async ({
  page,
  server,
}) => {
  await addProduct(server);
  const reads: Request[] = [];
  page.on('request', (request) => {
    if (isProductListRead(request)) reads.push(request);
  });
  await page.goto('/pass-or-gas');
  // The data arrived (the sample products).
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  expect(reads.length).toBeGreaterThan(0);
  const headers = await (reads[0] as Request).allHeaders();
  // The anon key, as supabase-js sends it without a session; no supabase-js client header.
  const anonKey = await appAnonKey(server);
  expect(headers.apikey).toBe(anonKey);
  expect(headers.authorization).toBe(`Bearer ${anonKey}`);
  expect(headers['x-client-info']).toBeUndefined();

  // supabase-js comes later, when the browser is idle (the session, the live tallies' channel).
  await expect.poll(async () => (await supabaseTiming(page)).chunk).not.toBeNull();
  const { chunk, idle } = await supabaseTiming(page);
  expect(idle).not.toBeNull();
  expect(chunk as number).toBeGreaterThanOrEqual(idle as number);
});

test("the home page's sections get their data through the public client", async ({ page, server }) => {
  // A visitor has no session: every read goes through the public client, also after supabase-js has
  // loaded at idle (loadDatabase, decision 158).
  const reads: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/rest/v1/')) reads.push(request);
  });
  await page.goto('/');
  for (const title of [
    'Featured from the team',
    'Latest news',
    'Top-rated on Pass or Gas',
    'Market index',
    'Recently added brands with a verified licence',
  ]) {
    const section = page.getByRole('region', { name: title });
    await expect(section).toBeVisible(FIRST_LOAD);
    // Past its loading state, and not in its error state: the data (or its absence) arrived.
    await expect(section.getByRole('status')).toHaveCount(0, FIRST_LOAD);
    await expect(section.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
    await expect(
      section
        .getByRole('listitem')
        .or(section.getByText(/ yet\b/))
        .first(),
    ).toBeVisible();
  }
  expect(reads.length).toBeGreaterThanOrEqual(5);
  const anonKey = await appAnonKey(server);
  for (const read of reads) {
    const headers = await read.allHeaders();
    expect(headers.authorization).toBe(`Bearer ${anonKey}`);
    expect(headers['x-client-info']).toBeUndefined();
  }
});

test("a member's reads go through supabase-js with the member's token", async ({ page, server, member }) => {
  await addProduct(server);
  const reads: Request[] = [];
  page.on('request', (request) => {
    if (isProductListRead(request)) reads.push(request);
  });
  const session = await openSignedIn(page, server, member, '/pass-or-gas');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) {
    const headers = await read.allHeaders();
    expect(headers.authorization).toBe(`Bearer ${session.access_token}`);
    expect(headers['x-client-info']).toMatch(/supabase-js/);
  }
});

test("an auth redirect's fragment sends the reads through supabase-js, which reports a refused link", async ({
  page,
  server,
}) => {
  await addProduct(server);
  const reads: Request[] = [];
  page.on('request', (request) => {
    if (isProductListRead(request)) reads.push(request);
  });
  // A used or expired link lands with an error in the fragment; supabase-js reads it on load.
  await page.goto(
    '/pass-or-gas#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
  );
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.getByText(/invalid or has expired/i).first()).toBeVisible();
  expect(reads.length).toBeGreaterThan(0);
  expect((await (reads[0] as Request).allHeaders())['x-client-info']).toMatch(/supabase-js/);
});
