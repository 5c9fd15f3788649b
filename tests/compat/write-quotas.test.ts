// @databases: both — write quotas are SQL triggers.
/**
 * Write quotas on every table members and visitors can write (decision 094), through supabase-js only,
 * as a script that skips the web app would call the API: one huge insert, a burst of small ones, a
 * visitor's bulk booking, a stream of uploads. Each is refused whole by the database with the one
 * rate-limit error — HTTP 429, code PT429, a message that says the limit, a hint and Retry-After — and
 * nothing of a refused request is stored. Other members and the server's own roles are not affected.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: ServerProcess;
let service: SupabaseClient;

let addressCounter = 0;
/** A client address of its own per client (the server trusts X-Forwarded-For from loopback). */
const nextAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

function clientAt(address: string): SupabaseClient {
  return anonClient(server, { headers: { 'x-forwarded-for': address } });
}

async function member(): Promise<SignedInUser> {
  return signedInUser(server, { headers: { 'x-forwarded-for': nextAddress() } });
}

interface Answer {
  error: { code: string; message: string; details: string | null; hint: string | null } | null;
  status: number;
}

function expectQuotaRefusal(answer: Answer, message: RegExp): void {
  expect({ status: answer.status, code: answer.error?.code }).toEqual({ status: 429, code: 'PT429' });
  expect(answer.error?.message).toMatch(message);
  expect(answer.error?.message).toMatch(/^rate limit reached/);
}

const comment = (userId: string, index: number) => ({
  user_id: userId,
  product_id: 'blue-dream',
  content: `Comment number ${index}`,
});

async function countOf(table: string, column: string, value: string): Promise<number | null> {
  const { count } = await service.from(table).select('*', { count: 'exact', head: true }).eq(column, value);
  return count;
}

beforeAll(async () => {
  server = await startServerProcess({ TRUST_PROXY: '127.0.0.1' });
  service = adminClient(server);
  // Comments name a real Pass or Gas product.
  const product = await service
    .from('products')
    .upsert({ id: 'blue-dream', name: 'Blue Dream', category: 'Flower' });
  if (product.error) throw new Error(`adding the product: ${product.error.message}`);
});
afterAll(() => server?.close());

describe('write quotas', () => {
  it('refuse a 10,000-row insert of comments whole, storing none of it', async () => {
    const alice = await member();
    const rows = Array.from({ length: 10_000 }, (_, index) => comment(alice.id, index));
    // Sent as supabase-js sends an insert, without its client-side column scan (quadratic in the row
    // count, it alone takes half a minute for 10,000 rows).
    const response = await fetch(`${server.url}/rest/v1/product_comments`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${alice.token}`,
        'content-type': 'application/json',
        prefer: 'return=minimal',
      },
      body: JSON.stringify(rows),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      code: 'PT429',
      message: 'rate limit reached: at most 5 comments can be added in one request.',
      details: 'This request adds more than 5.',
      hint: null,
    });
    expect(await countOf('product_comments', 'user_id', alice.id)).toBe(0);
  });

  it('allow 5 comments a minute, then answer 429 with the wait (Retry-After), and leave others alone', async () => {
    const bob = await member();
    for (let index = 0; index < 5; index++) {
      const answer = await bob.client.from('product_comments').insert(comment(bob.id, index));
      expect({ error: answer.error, status: answer.status }).toEqual({ error: null, status: 201 });
    }
    const sixth = await fetch(`${server.url}/rest/v1/product_comments`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${bob.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(comment(bob.id, 6)),
    });
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await sixth.json()).toEqual({
      code: 'PT429',
      message: 'rate limit reached: you can add at most 5 comments a minute.',
      details: 'At most 5 per minute, 100 per day and 5 in one request.',
      hint: `Try again in ${retryAfter} seconds.`,
    });
    expect(await countOf('product_comments', 'user_id', bob.id)).toBe(5);
    // Trying again does not lengthen the wait: refused requests are not counted.
    const again = await bob.client.from('product_comments').insert(comment(bob.id, 7));
    expectQuotaRefusal(again, /at most 5 comments a minute/);
    const carol = await member();
    expect((await carol.client.from('product_comments').insert(comment(carol.id, 1))).status).toBe(201);
  });

  it('cap saved articles per request: 20 in one go are fine, 21 are refused', async () => {
    const dave = await member();
    const article = (index: number) => ({
      user_id: dave.id,
      article_title: `Article ${index}`,
      article_url: `https://news.example/${dave.id}/${index}`,
    });
    const over = await dave.client
      .from('saved_articles')
      .insert(Array.from({ length: 21 }, (_, i) => article(i)));
    expectQuotaRefusal(over, /at most 20 saved articles can be added in one request/);
    const fine = await dave.client
      .from('saved_articles')
      .insert(Array.from({ length: 20 }, (_, i) => article(i)));
    expect(fine.status).toBe(201);
    expect(await countOf('saved_articles', 'user_id', dave.id)).toBe(20);
  });

  it('count new rows only: saving the same settings again (an upsert that updates) is never refused', async () => {
    const erin = await member();
    for (let index = 0; index < 15; index++) {
      const answer = await erin.client
        .from('privacy_settings')
        .upsert({ user_id: erin.id, show_email: index % 2 === 0 }, { onConflict: 'user_id' });
      expect(answer.error).toBeNull();
    }
  });

  it('apply to visitors by their address: a bulk booking is refused', async () => {
    const visitor = clientAt(nextAddress());
    const booking = {
      full_name: 'Brand Owner',
      email: 'brand@example.com',
      product_name: 'Sunset Gummies',
      product_category: 'Edibles',
      booking_date: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
      booking_time: '14:30',
    };
    expectQuotaRefusal(await visitor.from('bookings').insert([booking, booking]), /at most 1 bookings/);
    expect((await visitor.from('bookings').insert(booking)).status).toBe(201);
  });

  it('apply to uploads: 30 files a minute, then 429 from the file service', async () => {
    const frank = await member();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (index: number) =>
      frank.client.storage
        .from('user-uploads')
        .upload(`${frank.id}/avatar-${index}.png`, new Blob([png], { type: 'image/png' }));
    for (let index = 0; index < 30; index++) expect((await upload(index)).error).toBeNull();
    const refused = await upload(30);
    expect(refused.error).toMatchObject({ statusCode: '429' });
    expect(refused.error?.message).toBe('rate limit reached: you can add at most 30 files a minute.');
    const { data } = await frank.client.storage.from('user-uploads').list(frank.id, { limit: 100 });
    expect(data).toHaveLength(30);
  });

  it('do not limit the server’s own roles', async () => {
    const grace = await member();
    const rows = Array.from({ length: 200 }, (_, index) => comment(grace.id, index));
    expect((await service.from('product_comments').insert(rows)).status).toBe(201);
  });
});
