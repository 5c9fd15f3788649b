import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anonClient, clientFor } from '#tests/support/clients.ts';
import { createPostgresDatabase } from '#tests/support/databases.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { PASSWORD, uniqueEmail } from '#tests/support/users.ts';

/**
 * The start-up smoke test (decision 163), run on every Node.js line the project supports: the
 * server's bundle starts as `npm start` starts it, on an empty data directory (the first start applies
 * every migration) of each database, and one request of each kind works — so every native and
 * WebAssembly dependency (PGlite, argon2, esbuild, file-type) loads and runs on that line.
 */

// `npm test` names the line a tier runs on; run by hand, whatever line runs the test is checked.
const expectedLine = process.env.HG_NODE_LINE;

test('the test runs on the Node.js line its tier names', () => {
  if (expectedLine) expect(process.versions.node.split('.')[0]).toBe(expectedLine);
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(20);
});

test('esbuild, which builds the bundle, loads and compiles on this line', async () => {
  const esbuild = await import('esbuild');
  const { code } = await esbuild.transform('const n: number = 1; export default n;', { loader: 'ts' });
  expect(code).toContain('const n = 1');
});

const databases: Array<{
  name: string;
  env: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}> = [{ name: 'PGlite', env: async () => ({ env: {}, drop: async () => {} }) }];
if (process.env.TEST_PG_URL) {
  databases.push({
    name: 'PostgreSQL',
    env: async () => {
      // An empty database: the server applies every migration, as on an operator's first start.
      const database = await createPostgresDatabase();
      return { env: { DATABASE_URL: database.url }, drop: database.drop };
    },
  });
}

describe.each(databases)('first start on $name', ({ env }) => {
  let server: ServerProcess;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await env();
    drop = database.drop;
    server = await startServerProcess({ ...database.env, ENABLE_EMAIL_AUTOCONFIRM: 'true' });
  });

  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  test('answers /health and serves the web app', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`${server.url}/news`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
  });

  test('signs a member up and in (argon2), and the data API reads as that member', async () => {
    const email = uniqueEmail('smoke');
    const client = clientFor(server);
    const signUp = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { full_name: 'Smoke Test' } },
    });
    expect(signUp.error).toBeNull();
    const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    const userId = signIn.data.user?.id;
    expect(userId).toBeTruthy();
    const { data, error } = await client
      .from('privacy_settings')
      .select('user_id')
      .eq('user_id', userId as string);
    expect(error).toBeNull();
    expect(Array.isArray(data)).toBe(true);
    const booking = await anonClient(server)
      .from('bookings')
      .insert({
        full_name: 'Smoke Test',
        email,
        product_name: 'Smoke',
        product_category: 'Flower',
        // Two weeks ahead: bookings are for the coming year.
        booking_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
        booking_time: '10:00',
      });
    expect(booking.error).toBeNull();
  });

  test('stores a file (upload streaming, content sniffing) and reads it back', async () => {
    const email = uniqueEmail('smoke-file');
    const client = clientFor(server);
    await client.auth.signUp({ email, password: PASSWORD });
    const { data: signedIn } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    const userId = signedIn.user?.id as string;
    // The smallest valid PNG: one transparent pixel.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const path = `${userId}/avatar-${Date.now()}.png`;
    const upload = await client.storage.from('user-uploads').upload(path, png, { contentType: 'image/png' });
    expect(upload.error).toBeNull();
    const download = await client.storage.from('user-uploads').download(path);
    expect(download.error).toBeNull();
    expect(Buffer.from(await (download.data as Blob).arrayBuffer()).equals(png)).toBe(true);
  });

  test('delivers a realtime broadcast over the websocket', async () => {
    const client = anonClient(server);
    const topic = `smoke-${randomBytes(4).toString('hex')}`;
    const received = new Promise<unknown>((resolve) => {
      const channel = client.channel(topic, { config: { broadcast: { self: true } } });
      channel.on('broadcast', { event: 'ping' }, ({ payload }) => resolve(payload));
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED')
          void channel.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } });
      });
    });
    expect(await received).toEqual({ n: 1 });
    await client.removeAllChannels();
  });
});
